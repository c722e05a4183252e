/** What the session document tests share. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatbotClient } from '../../src/api/client.js';

export const file = (text: string, name: string, type = 'text/plain') =>
  new File([text], name, { type });

/** Sends a message with documents and collects the whole streamed answer. */
export async function askWith(
  api: ChatbotClient,
  sessionUuid: string,
  query: string,
  sessionDocumentUuids?: string[],
) {
  const stream = await api.messages.stream(sessionUuid, query, { sessionDocumentUuids });
  let text = '';
  for await (const piece of stream.text) text += piece;
  return { text, citations: stream.citations ?? [], messageUuid: stream.messageUuid };
}

/** The JSON error a refused request answers. */
export async function refusal(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

export const messageBody = (body: Record<string, unknown>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * An OpenAI-compatible chat-completions server that answers "Noted." and keeps each request's
 * messages, to see what an answer gave the model to read.
 */
export async function recordingLlm() {
  const requests: Array<{ messages: Array<{ role: string; content: string }> }> = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const part of req) body += part;
    requests.push(JSON.parse(body));
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(
      `data: ${JSON.stringify({ choices: [{ delta: { content: 'Noted.' } }] })}\n\ndata: [DONE]\n\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
