/** An OpenAI-compatible chat-completions provider (`LLM_BASE_URL`, e.g. `https://api.openai.com/v1`). */
export interface LlmOptions {
  baseUrl: string;
  apiKey?: string;
  model?: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class LlmError extends Error {
  override readonly name = 'LlmError';
}

/**
 * Streams the completion's text deltas. Throws LlmError when the provider refuses or cannot be
 * reached; a caller's abort ends the iteration quietly.
 */
export async function* streamCompletion(
  llm: LlmOptions,
  request: { model: string; temperature: number; messages: ChatMessage[] },
  signal: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        ...(llm.apiKey ? { Authorization: `Bearer ${llm.apiKey}` } : {}),
      },
      body: JSON.stringify({ ...request, stream: true }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return;
    throw new LlmError(`the language model could not be reached: ${(error as Error).message}`);
  }
  if (!response.ok || !response.body) {
    const detail = (await response.text().catch(() => '')).slice(0, 200);
    throw new LlmError(`the language model answered ${response.status}: ${detail}`);
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      const lines = buffer.split(/\r?\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        let parsed: { choices?: Array<{ delta?: { content?: unknown } }> };
        try {
          parsed = JSON.parse(data);
        } catch {
          continue;
        }
        const content = parsed.choices?.[0]?.delta?.content;
        if (typeof content === 'string' && content) yield content;
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    throw new LlmError(`the language model stream broke off: ${(error as Error).message}`);
  }
}
