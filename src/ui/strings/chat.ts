import type { Tables } from '../i18n.js';

/** Every visible or announced string of <chatbot-chat>. `{name}` marks a placeholder. */
export interface ChatStrings extends Record<string, string> {
  heading: string;
  conversation: string;
  message: string;
  placeholder: string;
  send: string;
  stop: string;
  retry: string;
  openChat: string;
  closeChat: string;
  newChat: string;
  latest: string;
  you: string;
  assistant: string;
  typing: string;
  stopped: string;
  notAnswered: string;
  copyAnswer: string;
  copyCode: string;
  copied: string;
  copyFailed: string;
  deleteExchange: string;
  deleted: string;
  deleteFailed: string;
  suggestions: string;
  answerReady: string;
  /** Nothing of the answer had arrived; `errorNetworkPartial`: some had. */
  errorNetwork: string;
  errorNetworkPartial: string;
  errorOffline: string;
  errorTimeout: string;
  errorTimeoutPartial: string;
  errorServer: string;
  errorAuth: string;
  errorOrigin: string;
  errorNotFound: string;
  errorRateLimit: string;
  rateLimitWait: string;
  rateLimitReady: string;
  errorConfig: string;
  errorUnknown: string;
}

const en: ChatStrings = {
  heading: 'Chat',
  conversation: 'Conversation',
  message: 'Message',
  placeholder: 'Ask a question…',
  send: 'Send',
  stop: 'Stop',
  retry: 'Retry',
  openChat: 'Open chat',
  closeChat: 'Close chat',
  newChat: 'New conversation',
  latest: 'Latest messages',
  you: 'You',
  assistant: 'Assistant',
  typing: 'Writing an answer…',
  stopped: 'Stopped',
  notAnswered: 'Not answered.',
  copyAnswer: 'Copy answer',
  copyCode: 'Copy code',
  copied: 'Copied',
  copyFailed: 'Could not copy',
  deleteExchange: 'Delete this exchange',
  deleted: 'Exchange deleted',
  deleteFailed: 'The exchange could not be deleted. Try again later.',
  suggestions: 'Suggested questions',
  answerReady: 'Answer: {text}',
  errorNetwork: 'The connection was lost. Your question is kept; you can retry.',
  errorNetworkPartial: 'The connection was lost. What arrived is kept; you can retry.',
  errorOffline: 'You are offline. Your question is kept; retry once you are back online.',
  errorTimeout: 'The answer took too long. Your question is kept; you can retry.',
  errorTimeoutPartial: 'The answer took too long. What arrived is kept; you can retry.',
  errorServer: 'The chat service had a problem ({status}). You can retry.',
  errorAuth: 'This chat is not set up correctly: its key was refused.',
  errorOrigin: 'This chat is not available on this site.',
  errorNotFound: 'This chatbot could not be found.',
  errorRateLimit: 'Too many messages. Please wait a moment.',
  rateLimitWait: 'You can send again in {seconds} s (at {time}).',
  rateLimitReady: 'You can send again now.',
  errorConfig: 'This chat is not set up correctly: {detail}.',
  errorUnknown: 'Something went wrong. You can retry.',
};

export const chatStrings: Tables<ChatStrings> = { en };

let germanAddress: string | undefined;

/**
 * Loads the German table from `url` instead of beside this module: the embed's classic script
 * names it by its absolute address, as it does the renderer (see src/chat/renderer.ts).
 */
export function loadStringsFrom(url: string): void {
  germanAddress = url;
}

/**
 * The tables other than English, loaded when a chat is first shown in their language: the
 * German one is a file of its own (`chatbot-chat-de.js`, beside the element's), not in every
 * visitor's first load. The element's first render waits for it (see `StringsController`).
 */
export const chatLanguages: Record<string, () => Promise<Partial<ChatStrings>>> = {
  de: async () => {
    try {
      return (
        (germanAddress
          ? await import(/* @vite-ignore */ germanAddress)
          : await import('./chat-de.js')) as typeof import('./chat-de.js')
      ).chatDe;
    } catch (error) {
      // A site owner who left the file out sees why their German page's chat is in English.
      console.warn(
        'chatbot-chat: the German strings (chatbot-chat-de.js, beside the element) did not load; the chat is in English.',
        error,
      );
      throw error;
    }
  },
};

/**
 * The strings of the rating controls, apart from `ChatStrings` so that only the lazily loaded
 * chunk that draws them carries them (see `AttachmentStrings`). The element's `strings`
 * overrides them too.
 */
export interface FeedbackStrings extends Record<string, string> {
  rateAnswer: string;
  helpful: string;
  notHelpful: string;
  feedbackReason: string;
  reasonWrong: string;
  reasonIncomplete: string;
  reasonNotAsked: string;
  reasonOther: string;
  feedbackComment: string;
  feedbackSend: string;
  feedbackClose: string;
  feedbackThanks: string;
  feedbackFailed: string;
  /** The answer's message was deleted (in the admin) after the page showed it. */
  feedbackGone: string;
}

export const feedbackStrings: Tables<FeedbackStrings> = {
  en: {
    rateAnswer: 'Rate this answer',
    helpful: 'Helpful',
    notHelpful: 'Not helpful',
    feedbackReason: 'What was wrong? (optional)',
    reasonWrong: 'Wrong',
    reasonIncomplete: 'Incomplete',
    reasonNotAsked: 'Not what I asked',
    reasonOther: 'Other',
    feedbackComment: 'Comment (optional)',
    feedbackSend: 'Send feedback',
    feedbackClose: 'Close',
    feedbackThanks: 'Thanks for your feedback',
    feedbackFailed: 'Your rating could not be saved. Please try again.',
    feedbackGone: 'This answer has been removed, so it can no longer be rated.',
  },
  de: {
    rateAnswer: 'Antwort bewerten',
    helpful: 'Hilfreich',
    notHelpful: 'Nicht hilfreich',
    feedbackReason: 'Was war falsch? (optional)',
    reasonWrong: 'Falsch',
    reasonIncomplete: 'Unvollständig',
    reasonNotAsked: 'Nicht meine Frage',
    reasonOther: 'Anderes',
    feedbackComment: 'Kommentar (optional)',
    feedbackSend: 'Feedback senden',
    feedbackClose: 'Schließen',
    feedbackThanks: 'Danke für Ihr Feedback',
    feedbackFailed: 'Ihre Bewertung konnte nicht gespeichert werden. Bitte erneut versuchen.',
    feedbackGone: 'Diese Antwort wurde entfernt und kann nicht mehr bewertet werden.',
  },
};

/**
 * The names of what shows only under a finished answer, drawn by the lazily loaded chunk, so the
 * first load does not carry them (see `FeedbackStrings`): its sources, and the topics a refusal
 * offers to ask instead.
 */
export interface AnswerStrings extends Record<string, string> {
  sources: string;
  askInstead: string;
  /** A question over the service's length limit; it goes back into the message box. */
  tooLong: string;
  /** Said after New conversation, beside its Undo button. */
  newChatStarted: string;
  undo: string;
  /** Asked after "Delete this exchange", beside its two answers. */
  deleteQuestion: string;
  deleteYes: string;
  cancel: string;
}

export const answerStrings: Tables<AnswerStrings> = {
  en: {
    sources: 'Sources',
    askInstead: 'Ask instead',
    tooLong:
      'Your message is longer than the {max} characters this chat takes. Shorten it and send it again.',
    newChatStarted: 'New conversation started.',
    undo: 'Undo',
    deleteQuestion: 'Delete this question and its answer?',
    deleteYes: 'Delete',
    cancel: 'Cancel',
  },
  de: {
    sources: 'Quellen',
    askInstead: 'Stattdessen fragen',
    tooLong:
      'Ihre Nachricht ist länger als die {max} Zeichen, die dieser Chat annimmt. Kürzen Sie sie und senden Sie sie erneut.',
    newChatStarted: 'Neue Unterhaltung begonnen.',
    undo: 'Rückgängig',
    deleteQuestion: 'Diese Frage und ihre Antwort löschen?',
    deleteYes: 'Löschen',
    cancel: 'Abbrechen',
  },
};

/** The label of the files sent with a question: drawn with the answers, attachments on or off. */
export interface SentStrings extends Record<string, string> {
  attachments: string;
}

export const sentStrings: Tables<SentStrings> = {
  en: { attachments: 'Attachments' },
  de: { attachments: 'Anhänge' },
};

/**
 * The strings of attachments (`attachments="on"`), apart from `ChatStrings` so that only the
 * lazily loaded chunk that shows them carries them. The element's `strings` overrides them too.
 */
export interface AttachmentStrings extends SentStrings {
  attach: string;
  removeAttachment: string;
  uploading: string;
  attachType: string;
  attachTypeRefused: string;
  attachSize: string;
  attachTooLarge: string;
  attachServer: string;
  attachFailed: string;
  attachLost: string;
  attachUnavailable: string;
  attachWait: string;
  attachUnsent: string;
}

export const attachmentStrings: Tables<AttachmentStrings> = {
  en: {
    // The same words as sentStrings' (a spread would keep that table in the first load).
    attachments: 'Attachments',
    attach: 'Attach file',
    removeAttachment: 'Remove {name}',
    uploading: 'Uploading {name}',
    attachType: 'This type of file cannot be attached (allowed: {types}).',
    attachTypeRefused: 'This type of file cannot be attached.',
    attachSize: 'This file is larger than {max}.',
    attachTooLarge: 'This file is too large for the chat service.',
    attachServer:
      'The chat service had a problem with this file ({status}). Remove it and try again later.',
    attachFailed: 'This file could not be uploaded: {detail}',
    attachUnavailable: 'Attachments are not available here.',
    attachLost: 'The connection was lost while this file uploaded. Remove it and attach it again.',
    attachWait: 'Your question will be sent once the files are uploaded.',
    attachUnsent:
      'Your question would be sent without {names} (not uploaded). Send again to send it anyway.',
  },
  de: {
    attachments: 'Anhänge',
    attach: 'Datei anhängen',
    removeAttachment: '{name} entfernen',
    uploading: '{name} wird hochgeladen',
    attachType: 'Dieser Dateityp kann nicht angehängt werden (erlaubt: {types}).',
    attachTypeRefused: 'Dieser Dateityp kann nicht angehängt werden.',
    attachSize: 'Diese Datei ist größer als {max}.',
    attachTooLarge: 'Diese Datei ist zu groß für den Chat-Dienst.',
    attachServer:
      'Der Chat-Dienst hatte ein Problem mit dieser Datei ({status}). Entfernen Sie sie und versuchen Sie es später erneut.',
    attachFailed: 'Diese Datei konnte nicht hochgeladen werden: {detail}',
    attachUnavailable: 'Anhänge sind hier nicht verfügbar.',
    attachLost:
      'Die Verbindung wurde beim Hochladen dieser Datei unterbrochen. Entfernen Sie sie und hängen Sie sie erneut an.',
    attachWait: 'Ihre Frage wird gesendet, sobald die Dateien hochgeladen sind.',
    attachUnsent:
      'Ihre Frage würde ohne {names} gesendet (nicht hochgeladen). Senden Sie erneut, um sie trotzdem zu senden.',
  },
};

/** What the chat's `strings` property overrides: any of its tables' strings. */
export type ChatStringOverrides = Partial<
  ChatStrings & FeedbackStrings & AnswerStrings & AttachmentStrings
>;
