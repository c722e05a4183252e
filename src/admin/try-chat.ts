// The chat of the "Try it" tab, as a chunk of its own (chatbot-admin-try-chat.js): see lazy-tab.ts.
import '../chat/index.js';
