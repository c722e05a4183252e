import type { AgentRow, ChatbotRow, SessionRow } from '../store/types.js';
import type { AnswerDeps, PreparedAnswer } from './answer-types.js';
import { agentMeta, citationsFor, type Passage, paced } from './compose.js';
import { type ChatMessage, LlmError, type LlmOptions, streamCompletion } from './llm.js';
import { NOT_COVERED, suggestionList } from './suggestions.js';

const DEFAULT_PROMPT = 'You are a helpful assistant for this website. Be concise and friendly.';

/**
 * An answer the LLM writes from the passages; when it fails before its first word, the composed
 * answer (`composedFallback`) takes its place. With no passages, `offered` topics follow whatever
 * it says, as the composed refusal offers them.
 */
export async function llmAnswer(
  deps: AnswerDeps,
  llm: LlmOptions,
  chatbot: ChatbotRow,
  session: SessionRow,
  agent: AgentRow,
  query: string,
  passages: Passage[],
  composedFallback: () => { text: string; picked: Passage[] },
  offered?: { close: boolean; topics: string[] },
): Promise<PreparedAnswer> {
  const cite = citationsFor(passages);
  const numbers = new Map(cite.citations.map((c) => [c.data_source_uuid, c.n]));
  const sourcesText = passages
    .map((p) => `[${numbers.get(p.source.uuid)}] ${p.source.title}\n${p.text}`)
    .join('\n\n');
  const instructions = [
    agent.prompt.trim() || DEFAULT_PROMPT,
    passages.length > 0
      ? 'Answer using only the numbered sources below. If they do not cover the question, say so plainly instead of guessing.'
      : 'No source of this chatbot matches the question: unless it is small talk, say plainly that your information does not cover it.',
    chatbot.show_citations && passages.length > 0
      ? 'After each sentence that uses a source, cite it as [n] with its number.'
      : 'Do not add citation markers.',
    'Write short paragraphs in Markdown.',
    passages.length > 0 ? `Sources:\n\n${sourcesText}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const history: ChatMessage[] = (await deps.store.recentMessages(session.uuid, 6))
    .flatMap((m) => [
      { role: 'user' as const, content: m.query },
      { role: 'assistant' as const, content: m.response },
    ])
    .filter((m) => m.content);
  const model =
    agent.meta.model && agent.meta.model !== 'default'
      ? agent.meta.model
      : (llm.model ?? 'gpt-4o-mini');
  const prepared: PreparedAnswer = {
    citations: chatbot.show_citations ? cite.citations : [],
    citeData: cite.citeData,
    meta: {
      ...agentMeta(agent, 'llm'),
      model,
      covered: passages.length > 0,
      sources: cite.citations.map((c) => c.data_source_uuid),
      ...(offered?.topics.length ? { suggestions: offered.topics } : {}),
    },
    errorMessage: '',
    cutShort: false,
    async *text(signal, pace = true) {
      let produced = false;
      try {
        for await (const delta of streamCompletion(
          llm,
          {
            model,
            temperature: agent.meta.temperature ?? 0.2,
            messages: [
              { role: 'system', content: instructions },
              ...history,
              { role: 'user', content: query },
            ],
          },
          signal,
        )) {
          produced = true;
          yield delta;
        }
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        prepared.errorMessage = error.message;
        if (produced) {
          prepared.cutShort = true;
          return;
        }
        // Nothing was said yet: answer from the sources rather than leave the user with nothing.
        prepared.meta.rule = 'llm-fallback';
        const fallback = passages.length > 0 ? composedFallback().text : NOT_COVERED;
        yield* paced(fallback, pace ? deps.streamDelayMs : 0, signal);
      }
      if (offered?.topics.length && !signal.aborted) {
        yield* paced(`\n\n${suggestionList(offered)}`, pace ? deps.streamDelayMs : 0, signal);
      }
    },
  };
  return prepared;
}
