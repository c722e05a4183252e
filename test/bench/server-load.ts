/**
 * The load client of `npm run bench:server`: node:http with keep-alive connections, as a browser
 * keeps them, and a request's clock starts when its bytes are handed to the socket: building 199
 * other requests first is the load client's cost, not the server's. A failed request (a status
 * other than 200, a reset, a refused connection) is counted, never thrown: a load test reports
 * its errors.
 */
import { Agent, request as httpRequest } from 'node:http';
import { CONCURRENCY, KEY } from './server-children.js';

const HEADERS = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

export interface Ask {
  url: string;
  body: string;
}

/** A server under test: what its visitors ask, and what was measured of it. */
export interface Target {
  name: string;
  ask: (i: number) => Ask;
  /**
   * Its own connections, closed before each of its turns: a server closes a connection idle for
   * its keep-alive timeout (5 s), the other servers' turns take about that long, and a request
   * sent on a connection the server is closing at that moment fails with ECONNRESET, the client's
   * doing.
   */
  agent: Agent;
  burst: Measured;
  sustained: Measured & {
    /** Time between one piece of an answer and the next, as the visitor sees it. */
    pauses: number[];
  };
  /** Answers given in all, warm-ups and ramps included. */
  given: number;
}

export interface Measured {
  firstByte: number[];
  answers: number;
  seconds: number;
  errors: number;
  /** Characters of the measured answers, to see that the floor's are as long. */
  characters: number;
  /** The first error's message, to say what went wrong. */
  error?: string;
}

export const newTarget = (name: string, ask: (i: number) => Ask): Target => ({
  name,
  ask,
  agent: new Agent({ keepAlive: true, maxSockets: CONCURRENCY }),
  burst: { firstByte: [], answers: 0, seconds: 0, errors: 0, characters: 0 },
  sustained: {
    firstByte: [],
    answers: 0,
    seconds: 0,
    errors: 0,
    characters: 0,
    pauses: [],
  },
  given: 0,
});

type Outcome = { firstByte: number; characters: number } | { error: string };

/**
 * One POST through node:http, resolving at the end of the body with its first-byte time; the
 * time between one piece of the body and the next goes into `pauses`.
 */
function post(agent: Agent, { url, body }: Ask, pauses?: number[]): Promise<Outcome> {
  return new Promise((resolve) => {
    let t0 = performance.now();
    let firstByte = -1;
    const failed = (error: Error) => resolve({ error: error.message });
    const request = httpRequest(
      url,
      { method: 'POST', agent, headers: { ...HEADERS, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        if (response.statusCode !== 200) {
          resolve({ error: `answered ${response.statusCode}` });
          response.resume();
          return;
        }
        let last = 0;
        let characters = 0;
        response.setEncoding('utf8');
        response.on('data', (text: string) => {
          characters += text.length;
          const now = performance.now();
          if (firstByte < 0) firstByte = now - t0;
          else pauses?.push(now - last);
          last = now;
        });
        response.on('end', () => resolve({ firstByte, characters }));
        response.on('error', failed);
        response.on('aborted', () => failed(new Error('the answer was cut off')));
      },
    );
    request.on('error', failed);
    request.end(body, () => {
      t0 = performance.now();
    });
  });
}

function count(into: Measured, outcome: Outcome): boolean {
  if ('error' in outcome) {
    into.errors++;
    into.error ??= outcome.error;
    return false;
  }
  return true;
}

/** One round of `CONCURRENCY` streams started together. */
async function round(target: Target, into?: Measured): Promise<void> {
  const began = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => post(target.agent, target.ask(i))),
  );
  target.given += outcomes.filter((o) => !('error' in o)).length;
  if (!into) return;
  into.seconds += (performance.now() - began) / 1000;
  for (const outcome of outcomes) {
    if (!count(into, outcome)) continue;
    into.answers++;
    into.firstByte.push((outcome as { firstByte: number }).firstByte);
    into.characters += (outcome as { characters: number }).characters;
  }
}

/**
 * All questions in the same instant, the worst case: for each target in turn, a discarded round
 * on fresh connections (they are then open, as a browser keeps them, and the server is warm),
 * then `rounds` measured rounds. The sustained windows, which alternate between targets,
 * are the figures that other load on the machine, which comes and goes, falls on alike.
 */
export async function bursts(targets: Target[], rounds: number): Promise<void> {
  for (const target of targets) {
    target.agent.destroy();
    await round(target);
    for (let r = 0; r < rounds; r++) await round(target, target.burst);
  }
}

export interface Window {
  /** Visitors join over this long, about one answer's length, so they do not ask in waves. */
  rampS: number;
  settleS: number;
  /** Measured for this long after the ramp and the settling. */
  measureS: number;
}

/**
 * `CONCURRENCY` visitors chatting at once, as a load test holds them: each one asks, reads its
 * whole answer and asks again at once, so that many streams are always open. The figures are
 * taken over `measureS` only; a visitor whose question failed waits a little before the next.
 */
export async function sustained(target: Target, window: Window): Promise<void> {
  const into = target.sustained;
  target.agent.destroy();
  const from = performance.now() + (window.rampS + window.settleS) * 1000;
  const until = from + window.measureS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * window.rampS * 1000) / CONCURRENCY));
      while (performance.now() < until) {
        const askedAt = performance.now();
        const measured = askedAt >= from && askedAt < until;
        const outcome = await post(target.agent, target.ask(i), measured ? into.pauses : undefined);
        const endedAt = performance.now();
        if (!('error' in outcome)) target.given++;
        const ok = measured ? count(into, outcome) : !('error' in outcome);
        if (!ok) await new Promise((resolve) => setTimeout(resolve, 50));
        else if (measured) into.firstByte.push((outcome as { firstByte: number }).firstByte);
        if (ok && endedAt >= from && endedAt < until) {
          into.answers++;
          into.characters += (outcome as { characters: number }).characters;
        }
      }
    }),
  );
  into.seconds += window.measureS;
}
