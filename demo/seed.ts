import type { ChatbotClient, FeedbackInput, QaSourceCreate } from '../src/api/index.js';

/** The demo chatbot's Q&A pairs: what a newcomer asks first about chatbot-elements. */
export const DEMO_QA: QaSourceCreate[] = [
  {
    question: 'What is chatbot-elements?',
    answer:
      'chatbot-elements is an embeddable chatbot front end: **`<chatbot-chat>`**, a chat widget you add to any page with one script tag, and **`<chatbot-admin>`**, an admin panel that drops into your own dashboard. It ships with a local reference server on SQLite, so `npm install && npm start` runs the whole system with no cloud account.',
  },
  {
    question: 'How do I embed the chat widget on my website?',
    answer:
      'Add one script tag before `</body>`:\n\n```html\n<script src="https://your-host/chatbot-embed.js"\n  data-base-url="https://your-chatbot-service"\n  data-api-key="YOUR_CHAT_ONLY_KEY"\n  data-chatbot-uuid="YOUR_CHATBOT_UUID"></script>\n```\n\nIt mounts a launcher bubble in the corner. Use a **chat-only key**, never a full key, in a public page.',
  },
  {
    question: 'Is it safe to put my API key in a web page?',
    answer:
      "Only a **chat-only key**. Create one with `npm run server -- create-key <user> --chat-only <chatbot-uuid>`: it reaches only that chatbot's sessions and messages. A full key can change or delete everything, so keep it on your server, or put a proxy in front that adds the key.",
  },
  {
    question: 'How do I run chatbot-elements on my own machine?',
    answer:
      'Run `npm install && npm start`. It builds the elements, starts the reference server on `http://127.0.0.1:8787` with the store in `data/chatbot.sqlite`, and prints the demo pages and a demo key. `npm start -- --reset` starts from an empty store.',
  },
  {
    question: 'Which file types can I upload as data sources?',
    answer:
      'The reference server reads `.txt`, `.md`, `.html`, `.pdf`, `.docx`, `.csv` and `.json` files. Anything else is refused with "file type not allowed". You can also add question-and-answer pairs and web pages by URL.',
  },
  {
    question: 'How do I change the colours and fonts of the chat widget?',
    answer:
      'Set the `--chatbot-*` custom properties, for example `chatbot-chat { --chatbot-accent: #0f766e; --chatbot-font: Georgia, serif; }`, or style its parts with `::part()`. Set `theme="dark"` to force dark mode; by default it follows the visitor\'s `prefers-color-scheme`.',
  },
  {
    question: 'Does it work with the hosted chatbot service?',
    answer:
      "Yes. Set `base-url` to the hosted service's address and use a key it issued: the elements and the API module call the same REST interface, so nothing else changes.",
  },
  {
    question: 'How do I add the admin panel to my dashboard?',
    answer:
      'Import `chatbot-elements/admin` (or load `dist/chatbot-admin.js`) and place `<chatbot-admin base-url="…" api-key="…"></chatbot-admin>` in your page. It manages chatbots, agents, data sources, tags and sessions, and its "Try it" tab is a live chat with the selected bot.',
  },
];

/**
 * The website's chatbot: the bike shop of demo/index.html answers about itself, from its customer
 * guide (demo/content/northwind-cycles.md) and the questions its counter hears most.
 */
export const SHOP_QA: QaSourceCreate[] = [
  {
    question: 'When are you open?',
    answer:
      'Monday to Saturday, **9:00 to 18:00**, at 12 Harbour Lane. We are closed on Sundays and public holidays.',
  },
  {
    question: 'How much does a service cost?',
    answer:
      'A **basic service** (brakes, gears, chain and tyres checked and adjusted) is **€49**, a **full service** **€119**. Parts come on top, only once you have approved them, and every repair starts with a free written quote.',
  },
  {
    question: 'Do you repair e-bikes?',
    answer:
      'Yes, of every brand: brakes, gears, wheels, tyres and lights. A faulty motor or battery goes to its maker under warranty, and we lend you a bike meanwhile.',
  },
];

/** One visitor's rating of an answer, as the chat's feedback controls send it. */
type DemoRating = Omit<FeedbackInput, 'rating'> & { rating: 'up' | 'down' };

/**
 * Conversations a few visitors had with the demo chatbot, so that Conversations and Insights
 * show something on first start: answers rated helpful, answers rated not helpful with a reason,
 * and questions the sources do not cover (one asked twice, in other words).
 */
export const DEMO_CONVERSATIONS: Array<Array<{ query: string; rating?: DemoRating }>> = [
  [
    { query: 'How do I embed the chat widget on my website?', rating: { rating: 'up' } },
    { query: 'Is it safe to put my API key in a web page?', rating: { rating: 'up' } },
  ],
  [
    { query: 'What does it cost?' },
    {
      query: 'Which file types can I upload as data sources?',
      rating: {
        rating: 'down',
        reason: 'incomplete',
        comment: 'Can it read spreadsheets (.xlsx)?',
      },
    },
  ],
  [
    {
      query: 'Is there a WordPress plugin?',
      rating: {
        rating: 'down',
        reason: 'not-asked',
        comment: 'I only wanted to know about WordPress.',
      },
    },
    {
      query: 'How do I change the colours and fonts of the chat widget?',
      rating: { rating: 'up' },
    },
  ],
  [{ query: 'what does it cost' }, { query: 'How do I run chatbot-elements on my own machine?' }],
];

/**
 * Has the demo conversations through the API as visitors would: a session each, the questions
 * asked in turn, ratings sent with the public chat-only key.
 */
export async function seedConversations(chat: ChatbotClient, chatbotUuid: string): Promise<void> {
  for (const conversation of DEMO_CONVERSATIONS) {
    const session = await chat.sessions.create(chatbotUuid);
    for (const { query, rating } of conversation) {
      await chat.messages.send(session.uuid, query);
      if (!rating) continue;
      const answered = (await chat.messages.list(session.uuid)).at(-1);
      if (answered) await chat.messages.feedback(answered.uuid, rating);
    }
  }
}
