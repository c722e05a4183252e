import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Message } from '../../src/api/types.js';
import type { Store } from '../../src/server/store/types.js';
import { askWith, file, messageBody, refusal } from './documents-helpers.js';
import { type Harness, keys, startHarness, TIMESTAMP, UUID } from './helpers.js';
import { type KeptDatabase, keptDatabase } from './stores.js';

const ZEPHYR = [
  '# Zephyr-9 field manual',
  '',
  'The Zephyr-9 drone has a flight time of 47 minutes on one battery.',
  '',
  'It weighs 1.2 kilograms with its propeller guards fitted.',
].join('\n');

describe('session documents', () => {
  let database: KeptDatabase;
  let h: Harness;
  // Its own store on the server's database: what is stored, not what the server's cache holds.
  let stored: Store;
  let bot: string;
  let second: string;
  const isStored = async (uuid: string) => (await stored.getSessionDocument(uuid)) !== undefined;

  before(async () => {
    database = await keptDatabase();
    h = await startHarness(database.serverOptions);
    bot = (await h.api.chatbots.create({ name: 'Drones' })).uuid;
    second = (await h.api.chatbots.create({ name: 'Second' })).uuid;
    await h.api.sources.createQa(bot, {
      question: 'What are your opening hours?',
      answer: 'We are open from 9 to 5 on weekdays.',
    });
    await h.api.sources.upload(
      bot,
      file('The Zephyr-8 drone has a flight time of 30 minutes.', 'zephyr-8.txt'),
    );
    await h.server.idle();
    stored = await database.openStore();
  });
  after(async () => {
    await h?.close();
    await database?.close();
  });

  it('uploads a file and answers its record', async () => {
    const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
    assert.deepEqual(keys(document), ['content_type', 'created_at', 'filename', 'size', 'uuid']);
    assert.match(document.uuid, UUID);
    assert.match(document.created_at!, TIMESTAMP);
    assert.equal(document.filename, 'zephyr.md');
    assert.equal(document.size, new TextEncoder().encode(ZEPHYR).length);
    assert.equal(document.content_type, 'text/plain');
  });

  it('answers from a document before the chatbot’s sources, citing it by filename', async () => {
    const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
    const session = await h.api.sessions.create(bot);
    const answer = await askWith(h.api, session.uuid, 'What is the flight time of the Zephyr-9?', [
      document.uuid,
    ]);
    assert.match(answer.text, /47 minutes/);
    assert.ok(answer.text.indexOf('47 minutes') < answer.text.indexOf('30 minutes') >>> 0);
    assert.deepEqual(answer.citations[0], {
      n: 1,
      data_source_uuid: document.uuid,
      title: 'zephyr.md',
      type: 'session_document',
    });
  });

  it('answers a follow-up from the document without it being sent again', async () => {
    const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
    const session = await h.api.sessions.create(bot);
    await askWith(h.api, session.uuid, 'What is the flight time of the Zephyr-9?', [document.uuid]);
    const followUp = await askWith(h.api, session.uuid, 'How much does the Zephyr-9 weigh?');
    assert.match(followUp.text, /1\.2 kilograms/);
    assert.equal(followUp.citations[0]?.type, 'session_document');
    // Without a match in the documents, the chatbot's own sources answer as before.
    const hours = await askWith(h.api, session.uuid, 'What are your opening hours?');
    assert.match(hours.text, /open from 9 to 5/);
  });

  it('quotes the opening of a document sent with a question its words do not match', async () => {
    const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
    const session = await h.api.sessions.create(bot);
    const answer = await askWith(h.api, session.uuid, 'Summarize this, please', [document.uuid]);
    assert.match(answer.text, /47 minutes/);
  });

  it('reads documents on the non-stream endpoint too', async () => {
    const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
    const session = await h.api.sessions.create(bot);
    const { response } = await h.api.messages.send(session.uuid, 'How heavy is the Zephyr-9?', {
      sessionDocumentUuids: [document.uuid],
    });
    assert.match(response, /1\.2 kilograms/);
  });

  it('lists the documents a message sent on its record, also when read again', async () => {
    const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
    const session = await h.api.sessions.create(bot);
    await askWith(h.api, session.uuid, 'What is the flight time?', [document.uuid]);
    await askWith(h.api, session.uuid, 'How much does it weigh?');
    const [first, followUp] = (await h.api.messages.list(session.uuid)) as Message[];
    assert.deepEqual(first!.session_documents, [
      { uuid: document.uuid, filename: 'zephyr.md', size: document.size },
    ]);
    assert.deepEqual(followUp!.session_documents, []);
    assert.ok(!('session_documents' in JSON.parse(first!.meta_json)));
  });

  it('takes the pre_canned_response and direct_function_response flags', async () => {
    const session = await h.api.sessions.create(bot);
    for (const path of ['stream', 'non-stream']) {
      const response = await h.raw(
        `/api/v1/session/${session.uuid}/message/${path}`,
        messageBody({
          query: 'What are your opening hours?',
          session_document_uuids: [],
          pre_canned_response: false,
          direct_function_response: true,
        }),
      );
      assert.equal(response.status, 200);
      assert.match(await response.text(), /open from 9 to 5/);
    }
  });

  it('takes a pasted file without an extension by its MIME type, and refuses other types', async () => {
    const pasted = await h.api.sessions.uploadDocument(file('Pasted words.', 'Pasted text'));
    assert.equal(pasted.filename, 'Pasted text');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0x4d, 0x5a])]), 'setup.exe');
    const refused = await refusal(
      await h.raw('/api/v1/session-document/upload', { method: 'POST', body: form }),
    );
    assert.equal(refused.status, 415);
    assert.equal(refused.code, 'file_type_not_allowed');
    assert.match(refused.message, /^file type not allowed: setup\.exe \(allowed: /);
    // A name's extension decides, whatever type the part claims.
    await assert.rejects(h.api.sessions.uploadDocument(file('MZ', 'setup.exe', 'text/plain')), {
      status: 415,
    });
  });

  describe('isolation', () => {
    it('another session, of the same chatbot, gets 404 for a document and never reads it', async () => {
      const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
      const session = await h.api.sessions.create(bot);
      await askWith(h.api, session.uuid, 'What is the flight time?', [document.uuid]);
      const other = await h.api.sessions.create(bot);
      const response = await h.raw(
        `/api/v1/session/${other.uuid}/message/stream`,
        messageBody({ query: 'What is the flight time?', session_document_uuids: [document.uuid] }),
      );
      assert.deepEqual(await refusal(response), {
        status: 404,
        code: 'not_found',
        message: `session document not found: ${document.uuid}`,
      });
      const answer = await askWith(h.api, other.uuid, 'What is the flight time of the Zephyr-9?');
      assert.doesNotMatch(answer.text, /47 minutes/);
      assert.ok(answer.citations.every((c) => c.type !== 'session_document'));
    });

    it('another user gets 404 for a document, which stays free for its owner', async () => {
      const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
      const bobBot = await h.other.chatbots.create({ name: 'Bob' });
      const bobSession = await h.other.sessions.create(bobBot.uuid);
      await assert.rejects(
        askWith(h.other, bobSession.uuid, 'What is the flight time?', [document.uuid]),
        { status: 404, serverMessage: `session document not found: ${document.uuid}` },
      );
      const session = await h.api.sessions.create(bot);
      const answer = await askWith(h.api, session.uuid, 'What is the flight time?', [
        document.uuid,
      ]);
      assert.match(answer.text, /47 minutes/);
    });

    it('a chat-only key uploads for its own chatbot, and no other chatbot’s session may use it', async () => {
      const own = h.clientFor(await h.server.createKey('alice', { chatOnly: bot }));
      const otherBot = h.clientFor(await h.server.createKey('alice', { chatOnly: second }));
      const document = await own.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
      const foreign = await otherBot.sessions.create(second);
      await assert.rejects(askWith(otherBot, foreign.uuid, 'Flight time?', [document.uuid]), {
        status: 404,
      });
      // Not even through the owner's full key, in a session of another chatbot.
      await assert.rejects(askWith(h.api, foreign.uuid, 'Flight time?', [document.uuid]), {
        status: 404,
      });
      const session = await own.sessions.create(bot);
      const answer = await askWith(own, session.uuid, 'What is the flight time?', [document.uuid]);
      assert.match(answer.text, /47 minutes/);
    });

    it('an unknown uuid is a 404 naming it', async () => {
      const session = await h.api.sessions.create(bot);
      const response = await h.raw(
        `/api/v1/session/${session.uuid}/message/non-stream`,
        messageBody({ query: 'Hi', session_document_uuids: ['no-such-document'] }),
      );
      assert.deepEqual(await refusal(response), {
        status: 404,
        code: 'not_found',
        message: 'session document not found: no-such-document',
      });
    });
  });

  describe('deletion', () => {
    it('deletes a session’s documents with it', async () => {
      const document = await h.api.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
      const session = await h.api.sessions.create(bot);
      await askWith(h.api, session.uuid, 'What is the flight time?', [document.uuid]);
      assert.ok(await isStored(document.uuid));
      await h.api.sessions.delete(session.uuid);
      assert.ok(!(await isStored(document.uuid)));
    });

    it('deletes a chatbot’s documents with it, sent or not', async () => {
      const doomed = (await h.api.chatbots.create({ name: 'Doomed' })).uuid;
      const chat = h.clientFor(await h.server.createKey('alice', { chatOnly: doomed }));
      const sent = await chat.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
      const unsent = await chat.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md'));
      const session = await chat.sessions.create(doomed);
      await askWith(chat, session.uuid, 'What is the flight time?', [sent.uuid]);
      await h.api.chatbots.delete(doomed);
      assert.ok(!(await isStored(sent.uuid)) && !(await isStored(unsent.uuid)));
      // Its key now uploads nothing: the chatbot it belonged to is gone.
      await assert.rejects(chat.sessions.uploadDocument(file(ZEPHYR, 'zephyr.md')), {
        status: 404,
      });
    });
  });
});
