import pg from 'pg';
import type { StoreChange } from '../types.js';
import { CHANNEL } from './db.js';

export interface ChangeListener {
  close(): Promise<void>;
}

export interface ListenOptions {
  url: string;
  /** This store's id: its own notifications come back to it too, and are ignored. */
  instanceId: string;
  emit: (change: StoreChange) => void;
  log: (line: string) => void;
}

/** The first retry waits this long, doubling up to MAX_BACKOFF_MS (plus up to a quarter more). */
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;
/**
 * A connection cut without a word (a peer that vanished) looks alive until TCP gives up, which
 * takes minutes: a trivial query this often, answered within HEARTBEAT_TIMEOUT_MS, finds out.
 */
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

/** Reads a notification's payload; null for one that is not ours to act on. */
function changeOf(payload: string | undefined, instanceId: string): StoreChange | null {
  let note: { from?: unknown; kind?: unknown; chatbotUuid?: unknown; sourceUuids?: unknown };
  try {
    note = JSON.parse(payload ?? '');
  } catch {
    return null;
  }
  if (note.from === instanceId) return null;
  if (note.kind === 'chunks' && typeof note.chatbotUuid === 'string') {
    const { sourceUuids } = note;
    // Without a readable list of sources, the whole chatbot's index is stale.
    return Array.isArray(sourceUuids) && sourceUuids.every((u) => typeof u === 'string')
      ? { kind: 'chunks', chatbotUuid: note.chatbotUuid, sourceUuids }
      : { kind: 'chunks', chatbotUuid: note.chatbotUuid };
  }
  if (note.kind === 'rows' || note.kind === 'jobs') return { kind: note.kind };
  return null;
}

/**
 * LISTENs on its own connection (a pooled one would be handed to queries and lose it) and turns
 * other instances' notifications into changes. When the connection drops it connects again with
 * backoff, then emits `reset`: what was announced meanwhile is lost, so listeners forget it all.
 * Resolves once listening; rejects when the first connection fails.
 */
export async function listenForChanges(options: ListenOptions): Promise<ChangeListener> {
  const { url, instanceId, emit, log } = options;
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const connect = async () => {
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      application_name: 'chatbot-store-listener',
    });
    let lost = false;
    // Until LISTEN has answered, a failure is the caller's to handle (connect rejects).
    let ready = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      next.end().catch(() => {});
      if (!ready) return;
      if (client === next) client = null;
      if (closed) return;
      log(`lost the PostgreSQL change listener${error ? ` (${error.message})` : ''}; reconnecting`);
      schedule();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    next.on('notification', (note) => {
      if (note.channel !== CHANNEL) return;
      const change = changeOf(note.payload, instanceId);
      if (change) emit(change);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      if (lost) throw new Error('the connection closed');
    } catch (error) {
      onLost();
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    ready = true;
    client = next;
  };

  const schedule = () => {
    const base = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** failures);
    failures += 1;
    retry = setTimeout(
      async () => {
        retry = undefined;
        if (closed) return;
        try {
          await connect();
        } catch {
          if (!closed) schedule();
          return;
        }
        failures = 0;
        if (!closed) emit({ kind: 'reset' });
      },
      base + Math.random() * base * 0.25,
    );
    retry.unref();
  };

  const heartbeat = setInterval(() => {
    const current = client;
    if (!current) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer to a heartbeat')), HEARTBEAT_TIMEOUT_MS);
    });
    Promise.race([current.query('SELECT 1'), late])
      .catch((error: Error) => current.emit('error', error))
      .finally(() => clearTimeout(timer));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  await connect().catch((error) => {
    clearInterval(heartbeat);
    throw error;
  });

  return {
    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
