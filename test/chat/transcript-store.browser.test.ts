import { expect } from '@open-wc/testing';
import type { Message } from '../../src/api/types.js';
import {
  citationsFromCiteData,
  exchangesFromMessages,
  feedbackFromJson,
  suggestionsFromMeta,
} from '../../src/chat/transcript-merge.js';
import { type Exchange, MAX_EXCHANGES, TranscriptStore } from '../../src/chat/transcript-store.js';

const exchange = (i: number, state: Exchange['state'] = 'done'): Exchange => ({
  id: `x${i}`,
  query: `q${i}`,
  response: `a${i}`,
  state,
});

describe('TranscriptStore', () => {
  afterEach(() => localStorage.clear());

  it('should keep transcripts apart per base URL and chatbot', () => {
    new TranscriptStore('https://a.example/', 'bot').save({
      sessionUuid: 's1',
      exchanges: [exchange(1)],
    });
    expect(new TranscriptStore('https://a.example', 'bot').load().sessionUuid).to.equal('s1');
    expect(new TranscriptStore('https://b.example', 'bot').load().exchanges).to.deep.equal([]);
    expect(new TranscriptStore('https://a.example', 'other').load().exchanges).to.deep.equal([]);
  });

  it('should keep transcripts apart per visitor, under a key that does not spell the id', () => {
    const id = 'ada@example.com';
    const ada = new TranscriptStore('https://a.example', 'bot', id);
    ada.save({ sessionUuid: 's-ada', exchanges: [exchange(1)] });
    expect(ada.key).to.not.contain(id);
    expect(Object.keys(localStorage).join(' ')).to.not.contain('ada');
    expect(new TranscriptStore('https://a.example', 'bot', id).load().sessionUuid).to.equal(
      's-ada',
    );
    expect(new TranscriptStore('https://a.example', 'bot', 'bob').load().exchanges).to.deep.equal(
      [],
    );
    expect(new TranscriptStore('https://a.example', 'bot').load().exchanges).to.deep.equal([]);
    // Without a visitor the key is the one stored before visitors existed.
    expect(new TranscriptStore('https://a.example/', 'bot').key).to.equal(
      'chatbot-chat:v1:https://a.example:bot',
    );
  });

  it(`should keep only the last ${MAX_EXCHANGES} exchanges`, () => {
    const store = new TranscriptStore('https://a.example', 'bot');
    store.save({ sessionUuid: 's', exchanges: Array.from({ length: 250 }, (_, i) => exchange(i)) });
    const loaded = store.load();
    expect(loaded.exchanges).to.have.length(MAX_EXCHANGES);
    expect(loaded.exchanges[0]!.query).to.equal('q50');
  });

  it('should load an answer cut off by a reload as failed, so it can be retried', () => {
    const store = new TranscriptStore('https://a.example', 'bot');
    store.save({ exchanges: [exchange(1, 'streaming')] });
    expect(store.load().exchanges[0]!.state).to.equal('failed');
  });

  it('should survive corrupt storage', () => {
    const store = new TranscriptStore('https://a.example', 'bot');
    localStorage.setItem(store.key, '{not json');
    expect(store.load()).to.deep.equal({ exchanges: [] });
  });

  it('should read citations from cite_data_json, in number order', () => {
    const citations = citationsFromCiteData(
      JSON.stringify({
        '2': { data_source_uuid: 'b', title: 'B', text: '', file_name: '', type: 'qa' },
        '1': { data_source_uuid: 'a', title: '', text: '', file_name: 'a.pdf', type: 'file' },
      }),
    );
    expect(citations?.map((c) => [c.n, c.title])).to.deep.equal([
      [1, 'a.pdf'],
      [2, 'B'],
    ]);
    expect(citationsFromCiteData('oops')).to.equal(undefined);
  });

  it('should turn message records into exchanges with their uuids', () => {
    const record = {
      uuid: 'm1',
      query: 'q',
      response: 'a [1]',
      cite_data_json: JSON.stringify({
        '1': { data_source_uuid: 'd', title: 'T', text: '', file_name: '', type: 'qa' },
      }),
    } as Message;
    const [restored] = exchangesFromMessages([record]);
    expect(restored).to.include({
      query: 'q',
      response: 'a [1]',
      messageUuid: 'm1',
      state: 'done',
    });
    expect(restored!.citations?.[0]?.title).to.equal('T');
  });

  it("should read a record's rating from feedback_json, and nothing from an unrated or odd one", () => {
    const rated = JSON.stringify({
      rating: 'down',
      reason: 'wrong',
      comment: 'No',
      at: '2026-01-01T00:00:00Z',
    });
    expect(feedbackFromJson(rated)).to.deep.equal({
      rating: 'down',
      reason: 'wrong',
      comment: 'No',
    });
    expect(feedbackFromJson('{"rating":"up","at":"x"}')).to.deep.equal({ rating: 'up' });
    for (const odd of [undefined, '', 'null', '5', '{"rating":"meh"}', '{oops']) {
      expect(feedbackFromJson(odd), String(odd)).to.equal(undefined);
    }
    const [restored] = exchangesFromMessages([
      { uuid: 'm1', query: 'q', response: 'a', feedback_json: rated } as Message,
    ]);
    expect(restored!.feedback?.rating).to.equal('down');
  });

  it("should read a refusal's offered topics from meta_json, and none from a covered or odd one", () => {
    const meta = JSON.stringify({ covered: false, suggestions: ['Opening hours?', 'Prices?'] });
    expect(suggestionsFromMeta(meta)).to.deep.equal(['Opening hours?', 'Prices?']);
    for (const odd of [
      undefined,
      '',
      'null',
      '{"covered":true}',
      '{"suggestions":[]}',
      '{"suggestions":"Prices?"}',
      '{"suggestions":[1]}',
      '{oops',
    ]) {
      expect(suggestionsFromMeta(odd), String(odd)).to.equal(undefined);
    }
    const [restored] = exchangesFromMessages([
      { uuid: 'm1', query: 'q', response: 'a', meta_json: meta } as Message,
    ]);
    expect(restored!.suggestions).to.deep.equal(['Opening hours?', 'Prices?']);
  });

  it("should keep a refusal's offered topics with the transcript", () => {
    const store = new TranscriptStore('https://a.example', 'bot');
    store.save({ exchanges: [{ ...exchange(1), suggestions: ['Prices?'] }] });
    expect(store.load().exchanges[0]!.suggestions).to.deep.equal(['Prices?']);
  });

  it('should keep a rating with the transcript', () => {
    const store = new TranscriptStore('https://a.example', 'bot');
    store.save({ exchanges: [{ ...exchange(1), feedback: { rating: 'up' } }] });
    expect(store.load().exchanges[0]!.feedback).to.deep.equal({ rating: 'up' });
  });
});

describe('newExchangeId', () => {
  it('should not repeat an id made in the same millisecond by another copy of the code', async () => {
    // The element and the answers' chunk are separate builds, each with its own copy of this
    // module: an id the chunk makes for a restored message must not be one the element makes.
    const one = await import('../../src/chat/transcript-store.js');
    const other = (await import(
      // @ts-expect-error: a second instance of the module, as a second build has
      '../../src/chat/transcript-store.js?copy'
    )) as typeof one;
    expect(other.newExchangeId).to.not.equal(one.newExchangeId);
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) {
      ids.add(one.newExchangeId());
      ids.add(other.newExchangeId());
    }
    expect(ids.size).to.equal(100);
  });
});
