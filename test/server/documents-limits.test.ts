import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import type { ChatbotClient } from '../../src/api/client.js';
import type { ApiError } from '../../src/api/errors.js';
import type { Message } from '../../src/api/types.js';
import {
  DOCUMENTS_TOO_LONG,
  documentSettings,
  SESSION_DOCUMENTS_TOO_LONG,
} from '../../src/server/knowledge/documents.js';
import { askWith, file, messageBody, recordingLlm, refusal } from './documents-helpers.js';
import { ADMIN_KEY, type Harness, startHarness, startHarnessWith } from './helpers.js';
import { deflatedSpaces, pdfWithContent } from './pdf-fixtures.js';

/** `tokens` tokens of text (4 characters each) about one thing. */
const textOf = (tokens: number, topic: string) =>
  `The ${topic} is here. `.repeat(Math.ceil((tokens * 4) / 20)).slice(0, tokens * 4);

describe('session document settings', () => {
  it('default to 10 MiB uploads, 6000 tokens of context and 100 MiB an hour per chatbot, and refuse a value that is no count', () => {
    assert.deepEqual(documentSettings({}), {
      maxBytes: 10 * 1024 * 1024,
      contextTokens: 6000,
      hourlyBytes: 100 * 1024 * 1024,
    });
    assert.deepEqual(
      documentSettings({
        CHATBOT_DOCUMENT_MAX_BYTES: '2048',
        CHATBOT_DOCUMENT_CONTEXT_TOKENS: '9',
        CHATBOT_DOCUMENT_HOURLY_BYTES: '5000',
      }),
      { maxBytes: 2048, contextTokens: 9, hourlyBytes: 5000 },
    );
    assert.throws(
      () => documentSettings({ CHATBOT_DOCUMENT_HOURLY_BYTES: '1.5' }),
      /CHATBOT_DOCUMENT_HOURLY_BYTES must be a positive whole number/,
    );
    assert.throws(
      () => documentSettings({ CHATBOT_DOCUMENT_CONTEXT_TOKENS: 'lots' }),
      /CHATBOT_DOCUMENT_CONTEXT_TOKENS must be a positive whole number/,
    );
    assert.throws(() => documentSettings({ CHATBOT_DOCUMENT_MAX_BYTES: '-1' }), /MAX_BYTES/);
  });
});

describe('session document limits', () => {
  let h: Harness;
  let bot: string;
  before(async () => {
    h = await startHarnessWith({
      CHATBOT_DOCUMENT_MAX_BYTES: '4096',
      CHATBOT_DOCUMENT_CONTEXT_TOKENS: '200',
    });
    bot = (await h.api.chatbots.create({ name: 'Limits' })).uuid;
    await h.api.sources.createQa(bot, {
      question: 'What are your opening hours?',
      answer: 'We are open from 9 to 5 on weekdays.',
    });
    await h.server.idle();
  });
  after(() => h.close());

  it('answers "too long" for documents over the context alone, binds none, and goes on', async () => {
    const long = await h.api.sessions.uploadDocument(file(textOf(201, 'kettle'), 'long.txt'));
    const session = await h.api.sessions.create(bot);
    const answer = await askWith(h.api, session.uuid, 'Where is the kettle?', [long.uuid]);
    assert.equal(answer.text, DOCUMENTS_TOO_LONG);
    const next = await askWith(h.api, session.uuid, 'What are your opening hours?');
    assert.match(next.text, /open from 9 to 5/);
    const kettle = await askWith(h.api, session.uuid, 'Where is the kettle?');
    assert.doesNotMatch(kettle.text, /kettle is here/);
    const [refused] = (await h.api.messages.list(session.uuid)) as Message[];
    assert.deepEqual(refused!.session_documents, [
      { uuid: long.uuid, filename: 'long.txt', size: long.size },
    ]);
    assert.equal(JSON.parse(refused!.meta_json).rule, 'documents-too-long');
  });

  it('answers "too long, or start a new chat session" when they fit alone but not with the session’s', async () => {
    const first = await h.api.sessions.uploadDocument(file(textOf(150, 'kettle'), 'first.txt'));
    const second = await h.api.sessions.uploadDocument(file(textOf(100, 'teapot'), 'second.txt'));
    const session = await h.api.sessions.create(bot);
    assert.match(
      (await askWith(h.api, session.uuid, 'Where is the kettle?', [first.uuid])).text,
      /kettle is here/,
    );
    const refused = await askWith(h.api, session.uuid, 'Where is the teapot?', [second.uuid]);
    assert.equal(refused.text, SESSION_DOCUMENTS_TOO_LONG);
    // The session goes on with the document it had, and the refused one stayed free.
    const kettle = await askWith(h.api, session.uuid, 'Where is the kettle?');
    assert.match(kettle.text, /kettle is here/);
    const fresh = await h.api.sessions.create(bot);
    const teapot = await askWith(h.api, fresh.uuid, 'Where is the teapot?', [second.uuid]);
    assert.match(teapot.text, /teapot is here/);
  });

  it('counts the message’s documents together, and takes them when they fit', async () => {
    const a = await h.api.sessions.uploadDocument(file(textOf(120, 'kettle'), 'a.txt'));
    const b = await h.api.sessions.uploadDocument(file(textOf(120, 'teapot'), 'b.txt'));
    const c = await h.api.sessions.uploadDocument(file(textOf(60, 'teapot'), 'c.txt'));
    const session = await h.api.sessions.create(bot);
    const both = await askWith(h.api, session.uuid, 'Where is it?', [a.uuid, b.uuid]);
    assert.equal(both.text, DOCUMENTS_TOO_LONG);
    const fits = await askWith(h.api, session.uuid, 'Where is the teapot?', [a.uuid, c.uuid]);
    assert.match(fits.text, /teapot is here/);
  });

  it('refuses an oversize upload with 413 while the body streams, and the client receives it', async () => {
    // Each refusal names the file's limit (the chat shows it), however the size came out.
    const serverMessage = 'the file is larger than 4096 bytes';
    await assert.rejects(h.api.sessions.uploadDocument(file('x'.repeat(4097), 'big.txt')), {
      status: 413,
      code: 'too_large',
      serverMessage,
    });
    // A declared length past the form's room: refused before the body is read.
    await assert.rejects(h.api.sessions.uploadDocument(file('x'.repeat(256 * 1024), 'big.txt')), {
      status: 413,
      serverMessage,
    });
    // A chunked body, with no length to refuse it by: counted as it arrives.
    const { status, text } = await chunkedUpload(h.url, 256 * 1024);
    assert.equal(status, 413);
    assert.deepEqual(JSON.parse(text), { error: { code: 'too_large', message: serverMessage } });
    // A file of the limit's size is taken.
    const exact = await h.api.sessions.uploadDocument(file('y'.repeat(4096), 'exact.txt'));
    assert.equal(exact.size, 4096);
  });

  describe('bad input', () => {
    const upload = (form: FormData | string, headers: Record<string, string> = {}) =>
      h
        .raw('/api/v1/session-document/upload', { method: 'POST', body: form, headers })
        .then(refusal);
    const formWith = (parts: Array<[string, Blob | string, string?]>) => {
      const form = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, filename);
      }
      return form;
    };

    it('refuses an upload without a file, or with the file under another name, or as text', async () => {
      for (const form of [
        formWith([['filename', 'notes.txt']]),
        formWith([['document', new Blob(['text']), 'notes.txt']]),
      ]) {
        assert.deepEqual(await upload(form), {
          status: 400,
          code: 'invalid_input',
          message: 'file is required (a form part named file)',
        });
      }
      assert.deepEqual(await upload(formWith([['file', 'text, not a file']])), {
        status: 400,
        code: 'invalid_input',
        message: 'file must be a file part (with a filename), not a text field',
      });
    });

    it('refuses two file parts in one upload, naming file', async () => {
      const form = formWith([
        ['file', new Blob(['one']), 'one.txt'],
        ['file', new Blob(['two']), 'two.txt'],
      ]);
      assert.deepEqual(await upload(form), {
        status: 400,
        code: 'invalid_input',
        message: 'file must be given once: one file per upload',
      });
    });

    it('refuses a file that is not what its extension says, or a PDF bomb, with 422, in the server’s own words', async () => {
      const zip = new JSZip();
      zip.file('notes.txt', 'a zip, but no Word document in it');
      const notWord = await zip.generateAsync({ type: 'uint8array' });
      for (const [name, bytes, message] of [
        ['report.docx', notWord, 'report.docx could not be read: not a readable .docx file'],
        ['plain.docx', 'hello world text', 'plain.docx could not be read: not a .docx (zip) file'],
        [
          'fake.pdf',
          'not a pdf at all',
          'fake.pdf could not be read: not a .pdf file (no %PDF- in its first 1024 bytes)',
        ],
        [
          'broken.pdf',
          '%PDF-1.4\n garbage',
          'broken.pdf could not be read: not a readable .pdf file',
        ],
        // 160 MB of spaces deflated twice: a few KB.
        [
          'bomb.pdf',
          pdfWithContent(deflateSync(deflatedSpaces(160)), ['FlateDecode', 'FlateDecode']),
          'bomb.pdf could not be read: its streams unpack to more than 128 MB',
        ],
      ] as const) {
        const form = formWith([['file', new Blob([bytes as BlobPart]), name]]);
        assert.deepEqual(await upload(form), { status: 422, code: 'unreadable_file', message });
      }
    });

    it('refuses a filename over 255 characters, an empty one, an empty file and a body that is no form', async () => {
      const long = `${'n'.repeat(252)}.txt`;
      for (const form of [
        formWith([
          ['file', new Blob(['text']), 'a.txt'],
          ['filename', long],
        ]),
        formWith([['file', new Blob(['text']), long]]),
      ]) {
        assert.deepEqual(await upload(form), {
          status: 400,
          code: 'invalid_input',
          message: 'filename must be at most 255 characters',
        });
      }
      const blank = formWith([
        ['file', new Blob(['text']), 'a.txt'],
        ['filename', ' '],
      ]);
      assert.equal((await upload(blank)).message, 'filename must not be empty');
      const empty = formWith([['file', new Blob([]), 'a.txt']]);
      assert.equal((await upload(empty)).message, 'file is empty');
      const json = await upload('{"file":"x"}', { 'Content-Type': 'application/json' });
      assert.equal(json.status, 400);
      assert.match(json.message, /multipart form/);
    });

    it('refuses a session_document_uuids that is not a list of at most 10 strings, naming it', async () => {
      const session = await h.api.sessions.create(bot);
      const cases: Array<[unknown, string]> = [
        ['abc', 'session_document_uuids must be an array of strings'],
        [{ uuid: 'a' }, 'session_document_uuids must be an array of strings'],
        [['a', 1], 'session_document_uuids[1] must be a string'],
        [
          Array.from({ length: 11 }, (_, i) => `uuid-${i}`),
          'session_document_uuids must have at most 10 items',
        ],
        [['u'.repeat(101)], 'session_document_uuids[0] must be at most 100 characters'],
      ];
      for (const [value, message] of cases) {
        for (const path of ['stream', 'non-stream']) {
          const response = await h.raw(
            `/api/v1/session/${session.uuid}/message/${path}`,
            messageBody({ query: 'Hi', session_document_uuids: value }),
          );
          assert.deepEqual(await refusal(response), {
            status: 400,
            code: 'invalid_input',
            message,
          });
        }
      }
    });

    it('refuses a pre_canned_response or direct_function_response that is not a boolean', async () => {
      const session = await h.api.sessions.create(bot);
      for (const member of ['pre_canned_response', 'direct_function_response']) {
        for (const value of ['yes', 1, []]) {
          const response = await h.raw(
            `/api/v1/session/${session.uuid}/message/stream`,
            messageBody({ query: 'Hi', [member]: value }),
          );
          assert.deepEqual(await refusal(response), {
            status: 400,
            code: 'invalid_input',
            message: `${member} must be a boolean`,
          });
        }
      }
      assert.deepEqual(await h.api.messages.list(session.uuid), []);
    });
  });
});

describe("a chatbot's visitors' uploads in an hour", () => {
  let h: Harness;
  let bot: string;
  let visitor: ChatbotClient;
  before(async () => {
    h = await startHarnessWith({ CHATBOT_DOCUMENT_HOURLY_BYTES: '1000' });
    bot = (await h.api.chatbots.create({ name: 'Uploads' })).uuid;
    visitor = h.clientFor(await h.server.createKey('alice', { chatOnly: bot }));
  });
  after(() => h.close());

  it('are limited together, sent or not, with 429 and when to try again; owners and other chatbots are not', async () => {
    const first = await visitor.sessions.uploadDocument(file('a'.repeat(600), 'first.txt'));
    // Sent with a message, it is the session's for as long as the session lasts: still counted.
    const session = await visitor.sessions.create(bot);
    await askWith(visitor, session.uuid, 'What is in it?', [first.uuid]);
    const refused = await visitor.sessions.uploadDocument(file('b'.repeat(600), 'second.txt')).then(
      () => assert.fail('a second upload past the hour’s bytes was taken'),
      (error: ApiError) => error,
    );
    assert.equal(refused.status, 429);
    assert.equal(refused.code, 'rate_limited');
    assert.match(
      refused.serverMessage ?? '',
      /uploaded as much as they may in an hour \(1000 bytes\)/,
    );
    assert.ok(refused.retryAfter! >= 3500 && refused.retryAfter! <= 3600, `${refused.retryAfter}`);
    // What is left of the hour is taken.
    const fits = await visitor.sessions.uploadDocument(file('c'.repeat(400), 'third.txt'));
    assert.equal(fits.size, 400);
    await assert.rejects(visitor.sessions.uploadDocument(file('d', 'fourth.txt')), {
      status: 429,
    });
    // The owner's own key, and another chatbot's visitors, have windows of their own.
    assert.equal((await h.api.sessions.uploadDocument(file('e'.repeat(900), 'own.txt'))).size, 900);
    const other = (await h.api.chatbots.create({ name: 'Other' })).uuid;
    const otherVisitor = h.clientFor(await h.server.createKey('alice', { chatOnly: other }));
    const elsewhere = await otherVisitor.sessions.uploadDocument(file('f'.repeat(900), 'f.txt'));
    assert.equal(elsewhere.size, 900);
  });
});

describe('session documents and an LLM', () => {
  let h: Harness;
  let llm: Awaited<ReturnType<typeof recordingLlm>>;
  before(async () => {
    llm = await recordingLlm();
    h = await startHarness({ llm: { baseUrl: llm.url, model: 'test-model' } });
  });
  after(async () => {
    await h.close();
    await llm.close();
  });

  it('gives the model the documents whole, the message’s and the session’s, before the sources', async () => {
    const bot = (await h.api.chatbots.create({ name: 'LLM' })).uuid;
    await h.api.sources.upload(bot, file('The kettle is in the kitchen.', 'kitchen.txt'));
    await h.server.idle();
    const earlier = await h.api.sessions.uploadDocument(file('The teapot is blue.', 'pot.txt'));
    const now = await h.api.sessions.uploadDocument(file('The kettle is red.', 'kettle.txt'));
    const session = await h.api.sessions.create(bot);
    await askWith(h.api, session.uuid, 'What colour is the teapot?', [earlier.uuid]);
    const answer = await askWith(h.api, session.uuid, 'Where is the kettle?', [now.uuid]);
    assert.equal(answer.text, 'Noted.');
    const system = llm.requests.at(-1)!.messages[0]!.content;
    const order = ['[1] kettle.txt\nThe kettle is red.', '[2] pot.txt\nThe teapot is blue.'];
    order.push('The kettle is in the kitchen.');
    const at = order.map((text) => system.indexOf(text));
    assert.ok(
      at.every((i) => i >= 0),
      system,
    );
    assert.deepEqual(
      [...at].sort((x, y) => x - y),
      at,
    );
    assert.deepEqual(
      answer.citations.map((c) => [c.title, c.type]),
      [
        ['kettle.txt', 'session_document'],
        ['pot.txt', 'session_document'],
        ['The kettle is in the kitchen.', 'file'],
      ],
    );
  });
});

/** A multipart upload of `bytes` sent chunked: no Content-Length to refuse it by. */
function chunkedUpload(url: string, bytes: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/session-document/upload`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ADMIN_KEY}`,
        'Content-Type': 'multipart/form-data; boundary=x',
        'Transfer-Encoding': 'chunked',
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n');
    for (let sent = 0; sent < bytes; sent += 16 * 1024) req.write('z'.repeat(16 * 1024));
    req.end('\r\n--x--\r\n');
  });
}
