/**
 * The attachments chunk, built as dist/chatbot-attachments.js: the upload client and the chips,
 * loaded by attachments-slot.ts only for an element with `attachments="on"`, so a page that
 * shows answers without attachments never downloads them.
 */
export { AttachmentsController } from './attachments-controller.js';
export { useLit } from './lazy-lit.js';
