/**
 * The one-tag embed: a classic script that mounts <chatbot-chat mode="launcher"> configured from
 * its own data-* attributes.
 *
 *   <script src="…/chatbot-embed.js" data-base-url="…" data-api-key="…" data-chatbot-uuid="…"></script>
 */
import { ChatbotChat } from './chat/chatbot-chat.js';
import { loadRendererFrom } from './chat/renderer.js';
import { loadStringsFrom } from './ui/strings/chat.js';

// Defined here rather than by importing the registration module for its side effect, which a
// bundler honouring package.json's `sideEffects: false` would drop.
if (!customElements.get('chatbot-chat')) customElements.define('chatbot-chat', ChatbotChat);

// currentScript exists only while this script first runs, so read it before anything waits.
const script =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[src*="chatbot-embed"]');

// The markdown renderer and the German strings are files beside this one (src/chat/renderer.ts).
if (script?.src) {
  loadRendererFrom(new URL('chatbot-markdown.js', script.src).href);
  loadStringsFrom(new URL('chatbot-chat-de.js', script.src).href);
}

function mount(): void {
  if (!script) return;
  // The snippet pasted twice (a template and a plugin) would stack two launchers of one chatbot,
  // both writing its remembered conversation.
  const uuid = script.dataset.chatbotUuid;
  const twin = [...document.querySelectorAll('chatbot-chat[mode=launcher]')].some(
    (el) => el.getAttribute('chatbot-uuid') === uuid,
  );
  if (twin && (script.dataset.mode ?? 'launcher') === 'launcher') {
    console.warn(
      "chatbot-embed: this chatbot's launcher is already on the page; a second script tag adds none.",
    );
    return;
  }
  const element = document.createElement('chatbot-chat');
  element.setAttribute('mode', 'launcher');
  // Every attribute of the element, each from the data-* name it spells (data-chatbot-uuid):
  // one added to the element needs no list here kept in step. data-open is read below.
  for (const name of ChatbotChat.observedAttributes) {
    const value = script.dataset[name.replace(/-(.)/g, (_, c: string) => c.toUpperCase())];
    if (value !== undefined && name !== 'open') element.setAttribute(name, value);
  }
  if (script.dataset.open !== undefined && script.dataset.open !== 'false') {
    element.setAttribute('open', '');
  }
  if (script.id) element.id = `${script.id}-chat`;
  document.body.append(element);
}

if (document.body) mount();
else document.addEventListener('DOMContentLoaded', mount, { once: true });
