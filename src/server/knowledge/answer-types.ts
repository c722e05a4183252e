/** The shapes an answer is made of, shared by the modules that write one. */
import type { Citation, CiteData } from '../../api/types.js';
import type { Store } from '../store/types.js';
import type { LlmOptions } from './llm.js';
import type { SearchIndex } from './search.js';

export interface AnswerDeps {
  store: Store;
  index: SearchIndex;
  llm?: LlmOptions;
  /** Pause between streamed pieces of a composed answer, so it reads as it arrives. */
  streamDelayMs: number;
}

/** Everything known before the first byte, plus the text still to come. */
export interface PreparedAnswer {
  citations: Citation[];
  citeData: CiteData;
  meta: AnswerMeta;
  /** Set when the answer was degraded (the LLM failed) or cut off. */
  errorMessage: string;
  /** The answer stopped before its end (the LLM broke off mid-answer). */
  cutShort: boolean;
  /** `pace: false` for a whole answer at once (the non-stream endpoint). */
  text(signal: AbortSignal, pace?: boolean): AsyncIterable<string>;
  /**
   * An answer known in full: `text()`'s pieces and the pause between them, for a stream to send
   * from timers instead of a promise chain per piece (streaming.ts).
   */
  paced?: Paced;
}

export interface Paced {
  pieces: readonly string[];
  delayMs: number;
}

/**
 * What every message record's meta_json says, besides the rule that answered and its agent:
 * whether the answer drew on the sources (`covered`), which ones (`sources`, data_source_uuids,
 * whether or not the chatbot shows citations), the topics offered instead (`suggestions`), and
 * `escalated` when the human-escalation agent answered, and `sources_asked: false` when an
 * agent answered before the sources were searched. The admin counts gaps from these.
 */
export interface AnswerMeta extends Record<string, unknown> {
  rule: string;
  covered: boolean;
  sources: string[];
  suggestions?: string[];
  escalated?: true;
  sources_asked?: false;
}
