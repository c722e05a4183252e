import type { ChatStrings } from './chat.js';

/** The German strings of <chatbot-chat>, loaded when a chat is shown in German (chat.ts). */
export const chatDe: Partial<ChatStrings> = {
  heading: 'Chat',
  conversation: 'Unterhaltung',
  message: 'Nachricht',
  placeholder: 'Stellen Sie eine Frage…',
  send: 'Senden',
  stop: 'Stopp',
  retry: 'Erneut versuchen',
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  newChat: 'Neue Unterhaltung',
  latest: 'Neueste Nachrichten',
  you: 'Sie',
  assistant: 'Assistent',
  typing: 'Antwort wird geschrieben…',
  stopped: 'Angehalten',
  notAnswered: 'Nicht beantwortet.',
  copyAnswer: 'Antwort kopieren',
  copyCode: 'Code kopieren',
  copied: 'Kopiert',
  copyFailed: 'Kopieren nicht möglich',
  deleteExchange: 'Diesen Austausch löschen',
  deleted: 'Austausch gelöscht',
  deleteFailed: 'Der Austausch konnte nicht gelöscht werden. Bitte später erneut versuchen.',
  suggestions: 'Vorgeschlagene Fragen',
  answerReady: 'Antwort: {text}',
  errorNetwork:
    'Die Verbindung wurde unterbrochen. Ihre Frage bleibt erhalten; Sie können es erneut versuchen.',
  errorNetworkPartial:
    'Die Verbindung wurde unterbrochen. Das Empfangene bleibt erhalten; Sie können es erneut versuchen.',
  errorOffline:
    'Sie sind offline. Ihre Frage bleibt erhalten; versuchen Sie es erneut, sobald Sie wieder online sind.',
  errorTimeout:
    'Die Antwort hat zu lange gedauert. Ihre Frage bleibt erhalten; Sie können es erneut versuchen.',
  errorTimeoutPartial:
    'Die Antwort hat zu lange gedauert. Das Empfangene bleibt erhalten; Sie können es erneut versuchen.',
  errorServer: 'Der Chat-Dienst hatte ein Problem ({status}). Sie können es erneut versuchen.',
  errorAuth: 'Dieser Chat ist nicht richtig eingerichtet: sein Schlüssel wurde abgelehnt.',
  errorOrigin: 'Dieser Chat ist auf dieser Website nicht verfügbar.',
  errorNotFound: 'Dieser Chatbot wurde nicht gefunden.',
  errorRateLimit: 'Zu viele Nachrichten. Bitte warten Sie einen Moment.',
  rateLimitWait: 'Sie können in {seconds} s wieder senden (um {time}).',
  rateLimitReady: 'Sie können jetzt wieder senden.',
  errorConfig: 'Dieser Chat ist nicht richtig eingerichtet: {detail}.',
  errorUnknown: 'Etwas ist schiefgelaufen. Sie können es erneut versuchen.',
};
