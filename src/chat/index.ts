import { ChatbotChat } from './chatbot-chat.js';

export type {
  AttachmentStrings,
  ChatStringOverrides,
  ChatStrings,
  FeedbackStrings,
} from '../ui/strings/chat.js';
export { ChatbotChat } from './chatbot-chat.js';
export type {
  ChatAnswerFinishedDetail,
  ChatAnswerFinishedEvent,
  ChatErrorDetail,
  ChatErrorEvent,
  ChatErrorKind,
  ChatEventMap,
  ChatFeedbackDetail,
  ChatFeedbackEvent,
  ChatMessageSendDetail,
  ChatMessageSendEvent,
  ChatSessionCreatedDetail,
  ChatSessionCreatedEvent,
} from './events.js';

// Importing this module registers the tag; the admin panel imports it too, so define it once.
if (!customElements.get('chatbot-chat')) customElements.define('chatbot-chat', ChatbotChat);
