/**
 * The documents an answer reads are chunked and indexed once for the questions that read them
 * (knowledge/documents.ts): each question of a session about its file did it again, a few
 * milliseconds before every first byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withDocuments } from '../../src/server/knowledge/documents.js';
import type { Hit } from '../../src/server/knowledge/search.js';
import type { SessionDocumentRow } from '../../src/server/store/types.js';

const document = (uuid: string, text: string): SessionDocumentRow => ({
  uuid,
  userId: 1,
  chatbotUuid: 'bot',
  sessionUuid: 'session',
  filename: `${uuid}.txt`,
  content_type: 'text/plain',
  size: text.length,
  markdown: false,
  text,
  tokens: Math.ceil(text.length / 4),
  created_at: '2026-03-10T00:00:00Z',
});

const passages = (query: string, documents: SessionDocumentRow[]) =>
  withDocuments(
    { hits: [] as Hit[], queryTerms: new Set<string>() },
    new Map(),
    query,
    {
      sent: [],
      earlier: documents,
    },
    false,
  ).hits;

describe('documents read by answers', () => {
  it('indexes the same documents once for every question, and other documents apart', () => {
    const flight = document('flight', 'The Zephyr-9 drone has a flight time of 47 minutes.');
    const weight = document('weight', 'The Zephyr-9 drone weighs 1.2 kilograms with guards.');
    const first = passages('What is the flight time of the Zephyr-9?', [flight]);
    const again = passages('Zephyr-9 flight time in minutes?', [flight]);
    assert.match(first[0]!.text, /47 minutes/);
    // The same indexed passage, not one chunked and indexed again.
    assert.equal(again[0]!.units, first[0]!.units);
    const both = passages('How many kilograms does the Zephyr-9 weigh?', [flight, weight]);
    assert.equal(both[0]!.sourceUuid, 'weight');
    assert.match(both[0]!.text, /1\.2 kilograms/);
  });
});
