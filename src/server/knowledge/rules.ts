/**
 * When the non-answering agents step in. These rules are this server's own (the hosted service
 * does not publish its), kept simple and predictable so an owner can tell why a reply was given:
 *
 * - spam-defense (enabled): the message is spam when it holds 3 or more links, is over 4,000
 *   characters, repeats one character 30 or more times in a row, or is the same text as both of
 *   the session's two previous messages. The agent's `default_message` is the reply.
 * - human-escalation (enabled): the message asks for a person — a request verb (talk, speak,
 *   chat, connect, transfer, contact, get, want, need, reach) with a person word (human, person,
 *   agent, operator, representative, someone, staff, team, support), or "live chat" / "real
 *   person" / "human" on its own. The reply is `human_escalation_settings.human_requested_message`.
 * - pre-canned (enabled): its `prompt` holds trigger phrases, one per line or comma-separated;
 *   the agent answers with its `default_message` when every topic word of one phrase is in the
 *   message (stemmed, so "refunds" matches "refund"). A pre-canned agent with an empty prompt
 *   answers instead of the "not covered" reply when the sources have nothing relevant.
 *
 * They are checked in that order, before the user-facing agent answers from the sources.
 */
import type { AgentRow } from '../store/types.js';
import { terms } from './text.js';

export function isSpam(query: string, previousQueries: string[]): boolean {
  const links = query.match(/\bhttps?:\/\/|\bwww\./gi)?.length ?? 0;
  if (links >= 3) return true;
  if (query.length > 4000) return true;
  if (/(.)\1{29,}/su.test(query)) return true;
  const normalized = query.trim().toLowerCase();
  const last = previousQueries.slice(-2).map((q) => q.trim().toLowerCase());
  return last.length === 2 && last.every((q) => q === normalized);
}

const PERSON =
  /\b(human|person|people|agent|operator|representative|rep|someone|somebody|staff|team member|support team|customer service|real person|live agent)\b/i;
const REQUEST = /\b(talk|speak|chat|connect|transfer|contact|get|want|need|reach|call|escalate)\b/i;
const STANDALONE = /^\s*(human|agent|operator|live chat|real person|representative)[\s.!?]*$/i;

export function asksForHuman(query: string): boolean {
  if (STANDALONE.test(query)) return true;
  if (/\blive chat\b|\breal person\b|\bhuman being\b/i.test(query)) return true;
  return PERSON.test(query) && REQUEST.test(query);
}

export function triggerPhrases(agent: AgentRow): string[] {
  return agent.prompt
    .split(/[\n,]+/)
    .map((p) => p.trim())
    .filter(Boolean);
}

export function matchesTrigger(agent: AgentRow, query: string): boolean {
  const words = terms(query);
  return triggerPhrases(agent).some((phrase) => {
    const needed = terms(phrase);
    return needed.size > 0 && [...needed].every((t) => words.has(t));
  });
}
