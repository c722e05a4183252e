import { expect } from '@open-wc/testing';
import {
  type ApiError,
  ChatbotApiError,
  isAbortError,
  isApiError,
  isChatbotApiError,
  isNetworkError,
} from '../../src/api/index.js';
import { fixtureBase } from './fixture-url.js';

type ApiModule = typeof import('../../src/api/index.js');

const origin = location.origin;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('the API error family across realms', () => {
  let frame: HTMLIFrameElement;
  let framed: ApiModule;

  // The frame loads its own copy of the module: its classes and its Error are not ours, as when a
  // host page's iframe (or a second bundle) makes the call and the page handles the failure.
  beforeEach(async () => {
    frame = document.createElement('iframe');
    document.body.append(frame);
    const url = new URL('/src/api/index.ts', origin).href;
    const frameWindow = frame.contentWindow as Window & { eval(code: string): unknown };
    framed = await (frameWindow.eval(`import(${JSON.stringify(url)})`) as Promise<ApiModule>);
  });

  afterEach(() => frame.remove());

  const frameClient = (baseUrl: string) =>
    framed.createClient({ baseUrl, apiKey: 'browser-key', retry: false });

  it("should pass the guard with a failure from another frame's copy, where instanceof fails", async () => {
    expect(framed.ChatbotApiError).not.to.equal(ChatbotApiError);
    const body = JSON.stringify({ error: { code: 'not_found', message: 'chatbot not found' } });
    const error = await failure(
      frameClient(fixtureBase(origin, 'status', { status: 404, body })).chatbots.get('cb9'),
    );
    expect(error instanceof ChatbotApiError).to.equal(false);
    expect(error instanceof Error).to.equal(false);
    expect(isChatbotApiError(error)).to.equal(true);
    expect(isApiError(error)).to.equal(true);
    expect((error as ApiError).method).to.equal('GET');
    expect((error as ApiError).path).to.equal('/api/v1/chatbot/cb9');
  });

  it("should pass the guard with a network failure from another frame's copy", async () => {
    const error = await failure(
      frameClient(fixtureBase(origin, 'drop', {})).chatbots.create({ name: 'x' }),
    );
    expect(isChatbotApiError(error)).to.equal(true);
    expect(isNetworkError(error)).to.equal(true);
  });

  it("should keep another frame's abort apart from the family", async () => {
    const controller = new AbortController();
    const pending = frameClient(fixtureBase(origin, 'slow', { ms: 400 })).chatbots.list({
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const error = await failure(pending);
    expect(isAbortError(error)).to.equal(true);
    expect(isChatbotApiError(error)).to.equal(false);
  });
});
