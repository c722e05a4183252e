/** The scripted fixture server and the client helpers the API module's Node suites share. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { createClient } from '../../src/api/index.js';
import { handleFixture } from './fixture-server.mjs';

/** The fixture server's address, set once `useFixtureServer()`'s hook has run. */
export let origin = '';

/** Starts the fixture server before the file's tests and stops it after them. */
export function useFixtureServer(): void {
  let server: Server;
  before(async () => {
    server = createServer((req, res) => void handleFixture(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
}

export const KEY = 'test-key-123';
export const fast = { limit: 2, baseDelayMs: 1, maxDelayMs: 5_000 };

export function client(baseUrl: string, extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({ baseUrl, apiKey: KEY, retry: fast, ...extra });
}

export interface Echo {
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body: string | null;
  };
}

export async function attempts(id: string): Promise<{ attempts: number; closed: boolean }> {
  return (await fetch(`${origin}/fixture/count/${id}`)).json() as Promise<{
    attempts: number;
    closed: boolean;
  }>;
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the call to fail');
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail('condition not met in time');
}
