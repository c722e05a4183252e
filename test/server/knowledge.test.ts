import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { idleReaders } from '../../src/server/knowledge/isolated.js';
import { CHUNK_CHARS, chunkText } from '../../src/server/knowledge/text.js';
import { ask, type Harness, ingested, settled, startHarness } from './helpers.js';
import { deflatedSpaces, pdfWithContent } from './pdf-fixtures.js';
import { until } from './stores.js';

async function pdfFixture(lines: string[], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage();
  lines.forEach((line, i) => {
    page.drawText(line, { x: 50, y: 750 - i * 20, font, size: 12 });
  });
  doc.setTitle(title);
  return doc.save();
}

/**
 * A one-page PDF whose content stream draws about `chars` characters of text, deflated: the
 * file is a small fraction of its text.
 */
function compressedPdf(chars: number): Uint8Array {
  const line = `BT /F1 12 Tf 72 720 Td (${'The quick brown fox jumps over the lazy dog '.repeat(20)}) Tj ET\n`;
  return pdfWithContent(
    deflateSync(Buffer.from(line.repeat(Math.ceil(chars / (line.length - 30))))),
    ['FlateDecode'],
  );
}

/**
 * LZW codes (9 to 12 bits, growing one code early, as PDF's `/EarlyChange 1`) packed into
 * bytes, with the clear code first and the end code last.
 */
function lzwPack(codes: number[]): Buffer {
  const out: number[] = [];
  let held = 0;
  let bits = 0;
  let width = 9;
  let next = 258;
  const put = (code: number) => {
    held = (held << width) | code;
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      out.push((held >>> bits) & 255);
    }
    held &= (1 << bits) - 1;
  };
  put(256);
  codes.forEach((code, i) => {
    put(code);
    // The decoder defines a code from the second one on, and widens one code early.
    if (i > 0 && next < 4096) next++;
    if (next + 1 >= 1 << width && width < 12) width++;
  });
  put(257);
  if (bits > 0) out.push((held << (8 - bits)) & 255);
  return Buffer.from(out);
}

/** Plain LZW of `text` (a string table, as PDF readers decode it). */
function lzwEncode(text: string): Buffer {
  const table = new Map<string, number>();
  for (let i = 0; i < 256; i++) table.set(String.fromCharCode(i), i);
  let next = 258;
  const codes: number[] = [];
  let word = '';
  for (const char of text) {
    if (table.has(word + char)) word += char;
    else {
      codes.push(table.get(word)!);
      if (next < 4096) table.set(word + char, next++);
      word = char;
    }
  }
  if (word) codes.push(table.get(word)!);
  return lzwPack(codes);
}

/**
 * LZW that unpacks to about `mb` MB of spaces: each code the one being defined (a space longer
 * than the last) until the table is full, then its longest string over and over.
 */
function lzwSpaces(mb: number): Buffer {
  const codes = [32];
  for (let code = 258; code < 4096; code++) codes.push(code);
  const longest = 4096 - 258 + 1;
  for (let made = 0; made < mb * 2 ** 20; made += longest) codes.push(4095);
  return lzwPack(codes);
}

/** ASCII85 of `bytes`, ending in `~>`, with `z` for four zero bytes. */
function ascii85(bytes: Buffer): Buffer {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const group = bytes.subarray(i, i + 4);
    const word = Buffer.concat([group, Buffer.alloc(4 - group.length)]).readUInt32BE(0);
    if (word === 0 && group.length === 4) {
      out += 'z';
      continue;
    }
    let digits = '';
    for (let n = word, k = 0; k < 5; k++, n = Math.floor(n / 85)) {
      digits = String.fromCharCode(33 + (n % 85)) + digits;
    }
    out += digits.slice(0, group.length + 1);
  }
  return Buffer.from(`${out}~>`);
}

/** Run-length data: `text` as literal runs of up to 128 bytes, then the end mark. */
function runLengthOf(text: string): Buffer {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 128) {
    const run = bytes.subarray(i, i + 128);
    parts.push(Buffer.from([run.length - 1]), run);
  }
  return Buffer.concat([...parts, Buffer.from([128])]);
}

/**
 * The smallest .docx Word and mammoth accept: one document part with a heading and a paragraph,
 * at `main` (mammoth finds it by the package's relationship, whatever its name).
 */
async function docxFixture(
  heading: string,
  paragraph: string,
  times = 1,
  main = 'word/document.xml',
): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="xml" ContentType="application/xml"/>
  <Override PartName="/${main}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${main}"/>
</Relationships>`,
  );
  zip.file(
    main,
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
  <w:body>
    <w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>${heading}</w:t></w:r></w:p>
    ${`<w:p><w:r><w:t>${paragraph}</w:t></w:r></w:p>`.repeat(times)}
  </w:body>
</w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

describe('knowledge from files', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const fixtures: Array<{
    name: string;
    bytes: () => Promise<Uint8Array> | Uint8Array;
    title: string;
    ask: string;
    expect: RegExp;
  }> = [
    {
      name: 'notes.txt',
      bytes: () =>
        new TextEncoder().encode(
          'Meeting notes\n\nAlice talked about pizza. Bob talked about trains.',
        ),
      title: 'Meeting notes',
      ask: 'What did Alice talk about?',
      expect: /Alice talked about pizza/,
    },
    {
      name: 'guide.md',
      bytes: () =>
        new TextEncoder().encode('# Care guide\n\nWater the ferns every Tuesday morning.\n'),
      title: 'Care guide',
      ask: 'When should the ferns be watered?',
      expect: /every Tuesday/,
    },
    {
      name: 'page.html',
      bytes: () =>
        new TextEncoder().encode(
          '<html><head><title>Returns policy</title><script>var tracking = 1;</script></head><body><nav>Home | Shop</nav><main><h1>Returns</h1><p>Unused items can be returned within 30 days for a full refund.</p><p>Refunds reach the original card within five working days of the parcel arriving.</p></main></body></html>',
        ),
      title: 'Returns policy',
      ask: 'Can I return unused items?',
      expect: /within 30 days/,
    },
    {
      name: 'manual.pdf',
      bytes: () =>
        pdfFixture(
          ['The boiler pressure should stay near 1.5 bar.', 'Bleed the radiators each autumn.'],
          'Boiler manual',
        ),
      title: 'Boiler manual',
      ask: 'What pressure should the boiler have?',
      expect: /1\.5 bar/,
    },
    {
      name: 'handbook.docx',
      bytes: () =>
        docxFixture('Staff handbook', 'Holiday requests go to the office manager two weeks ahead.'),
      title: 'Staff handbook',
      ask: 'Who handles holiday requests?',
      expect: /office manager/,
    },
    {
      name: 'prices.csv',
      bytes: () =>
        new TextEncoder().encode('product,price,colour\nKettle,25 EUR,steel\nToaster,40 EUR,red\n'),
      title: 'prices.csv',
      ask: 'How much is the toaster?',
      expect: /Toaster; price: 40 EUR/,
    },
    {
      name: 'faq.json',
      bytes: () =>
        new TextEncoder().encode(
          JSON.stringify({
            title: 'Parking facts',
            parking: { garage: 'The garage closes at midnight.' },
          }),
        ),
      title: 'Parking facts',
      ask: 'When does the garage close?',
      expect: /closes at midnight/,
    },
  ];

  for (const fixture of fixtures) {
    it(`ingests a ${fixture.name.split('.').pop()} file, titles it from its content, and answers from it with a citation`, async () => {
      const bot = await h.api.chatbots.create({ name: fixture.name });
      const bytes = await fixture.bytes();
      const created = await h.api.sources.upload(
        bot.uuid,
        new Blob([bytes as Uint8Array<ArrayBuffer>]),
        {
          fileName: fixture.name,
        },
      );
      assert.equal(created.file_size, bytes.length);
      const source = await settled(h, bot.uuid, created.uuid);
      assert.equal(source.status, 'success', source.meta_json);
      assert.equal(source.title, fixture.title);
      assert.ok(source.tokens > 0);
      const session = await h.api.sessions.create(bot.uuid);
      const answer = await ask(h.api, session.uuid, fixture.ask);
      assert.match(answer.text, fixture.expect);
      assert.match(answer.text, /\[1\]/);
      assert.deepEqual(answer.citations, [
        { n: 1, data_source_uuid: source.uuid, title: fixture.title, type: 'file' },
      ]);
    });
  }

  it('an HTML page answers without its scripts or navigation', async () => {
    const bot = await h.api.chatbots.create({ name: 'html' });
    const created = await h.api.sources.upload(
      bot.uuid,
      new Blob([
        '<html><head><title>T</title><script>secretTracking()</script></head><body><p>Opening hours are nine to five on weekdays.</p></body></html>',
      ]),
      { fileName: 'hours.htm' },
    );
    await settled(h, bot.uuid, created.uuid);
    const session = await h.api.sessions.create(bot.uuid);
    const answer = await ask(h.api, session.uuid, 'opening hours weekdays');
    assert.match(answer.text, /nine to five/);
    assert.doesNotMatch(answer.text, /secretTracking/);
  });

  it('a file the parser cannot read ends in fail with the reason in meta_json', async () => {
    const bot = await h.api.chatbots.create({ name: 'broken' });
    const source = await ingested(h, bot.uuid, 'broken.json', '{not json');
    assert.equal(source.status, 'fail');
    assert.match(JSON.parse(source.meta_json).error, /not valid JSON/);
  });

  it('a .pdf that is no PDF fails with the reason in the server’s own words, as a .docx that is no zip does', async () => {
    const bot = await h.api.chatbots.create({ name: 'fake' });
    for (const [name, text, reason] of [
      ['fake.pdf', 'not a pdf at all', 'not a .pdf file (no %PDF- in its first 1024 bytes)'],
      ['broken.pdf', '%PDF-1.4\n garbage', 'not a readable .pdf file'],
      ['fake.docx', 'not a zip at all', 'not a .docx (zip) file'],
    ]) {
      const source = await ingested(h, bot.uuid, name, text);
      assert.equal(source.status, 'fail', name);
      assert.equal(JSON.parse(source.meta_json).error, reason, name);
    }
  });

  it('a .docx whose text unpacks past 16 MB (a zip bomb) fails with the reason, unread, whatever its document part is named', async () => {
    const bot = await h.api.chatbots.create({ name: 'bomb' });
    for (const main of ['word/document.xml', 'word/main.bin']) {
      // 20,000 paragraphs of 1 KB: about 20 MB of XML in a file of a few hundred KB.
      const paragraph = 'lorem ipsum dolor sit amet '.repeat(38);
      const bytes = await docxFixture('Bomb', paragraph, 20_000, main);
      assert.ok(bytes.length < 1_000_000, `${bytes.length} bytes`);
      const source = await ingested(h, bot.uuid, 'bomb.docx', bytes);
      assert.equal(source.status, 'fail', main);
      assert.match(JSON.parse(source.meta_json).error, /unpack to more than 16 MB/, main);
    }
  });

  it('a PDF whose streams unpack to more than the limit (deflate, LZW, run-length, one filter after another) fails with the reason before pdfjs holds it', async () => {
    const bot = await h.api.chatbots.create({ name: 'pdf bombs' });
    // 160 MB of spaces each: pdfjs would hold the whole stream in memory its heap limit does not
    // count (a 1 MB file took the server to 2.5 GB). The limit: 128 MB, and 8× the file.
    const spaces = deflatedSpaces(160);
    const bombs: Array<[string, Uint8Array]> = [
      ['deflate', pdfWithContent(spaces, ['FlateDecode'])],
      ['deflate twice', pdfWithContent(deflateSync(spaces), ['FlateDecode', 'FlateDecode'])],
      ['LZW', pdfWithContent(lzwSpaces(160), ['LZWDecode'])],
      [
        'hex, then deflate',
        pdfWithContent(Buffer.from(`${spaces.toString('hex')}>`), ['ASCIIHexDecode', 'Fl']),
      ],
      ['ASCII85, then deflate', pdfWithContent(ascii85(spaces), ['A85', 'FlateDecode'])],
      // Two streams of a page, each damaged after 80 MB: pdfjs reads what comes before.
      [
        'deflate, damaged',
        pdfWithContent(
          Buffer.concat([deflatedSpaces(80).subarray(0, -2), Buffer.from([0xff, 0xff, 0xff])]),
          ['Fl'],
          { times: 2 },
        ),
      ],
      // 128 spaces a pair of bytes: 2.5 MB of file, its limit 148 MB.
      [
        'run-length',
        pdfWithContent(
          Buffer.concat([
            Buffer.alloc(160 * 2 ** 13 * 2, Buffer.from([129, 0x20])),
            Buffer.from([128]),
          ]),
          ['RunLengthDecode'],
        ),
      ],
    ];
    for (const [name, bytes] of bombs) {
      assert.ok(bytes.length < 3_000_000, `${name}: ${bytes.length} bytes`);
      const source = await ingested(h, bot.uuid, `${name}.pdf`, bytes);
      assert.equal(source.status, 'fail', name);
      assert.match(
        JSON.parse(source.meta_json).error,
        /^its streams unpack to more than 1[2-4]\d MB$/,
        name,
      );
    }
  });

  it('an encrypted PDF, whose streams the guard cannot read, is stopped when reading it takes more memory than the limit', async () => {
    // 256 MB: a worker needs about 100 MB of heap to load pdfjs and mammoth.
    const small = await startHarness({ extractLimits: { memoryMb: 256 } });
    try {
      const bot = await small.api.chatbots.create({ name: 'encrypted' });
      const text = 'BT /F1 12 Tf 72 720 Td (The lift is out of order.) Tj ET';
      const lift = pdfWithContent(deflateSync(Buffer.from(text)), ['FlateDecode'], {
        encrypted: true,
      });
      const read = await ingested(small, bot.uuid, 'lift.pdf', lift);
      assert.equal(read.status, 'success', read.meta_json);
      // 1 GB of spaces: the guard counts an encrypted stream at its 1 MB.
      const bomb = pdfWithContent(deflatedSpaces(1024), ['FlateDecode'], { encrypted: true });
      const source = await ingested(small, bot.uuid, 'bomb.pdf', bomb);
      assert.equal(source.status, 'fail');
      assert.equal(
        JSON.parse(source.meta_json).error,
        'reading it needs more than 256 MB of memory',
      );
      const session = await small.api.sessions.create(bot.uuid);
      assert.match(
        (await ask(small.api, session.uuid, 'Is the lift working?')).text,
        /out of order/,
      );
    } finally {
      await small.close();
    }
  });

  it('a PDF whose text is LZW-, hex-, ASCII85- or run-length-encoded is read as pdfjs reads it', async () => {
    const bot = await h.api.chatbots.create({ name: 'old pdfs' });
    const content = 'BT /F1 12 Tf 72 720 Td (The lift is out of order until Friday.) Tj ET';
    for (const [name, bytes] of [
      ['lzw.pdf', pdfWithContent(lzwEncode(content), ['LZWDecode'])],
      ['hex.pdf', pdfWithContent(Buffer.from(`${Buffer.from(content).toString('hex')}>`), ['AHx'])],
      ['a85.pdf', pdfWithContent(ascii85(deflateSync(Buffer.from(content))), ['A85', 'Fl'])],
      ['rl.pdf', pdfWithContent(runLengthOf(content), ['RL'])],
    ] as const) {
      const source = await ingested(h, bot.uuid, name, bytes);
      assert.equal(source.status, 'success', `${name}: ${source.meta_json}`);
    }
    const session = await h.api.sessions.create(bot.uuid);
    const answer = await ask(h.api, session.uuid, 'When will the lift work?');
    assert.match(answer.text, /out of order until Friday/);
  });

  it('a small file whose text would come to more than 16 MB (CSV headers, JSON paths) fails with the reason', async () => {
    const bot = await h.api.chatbots.create({ name: 'amplified' });
    // Every row repeats 100 headers of 150 characters: 1,200 rows of 200 bytes come to 18 MB.
    const headers = Array.from({ length: 100 }, (_, i) => `${'h'.repeat(146)}${i + 1000}`);
    const csv = `${headers.join(',')}\n${`${Array(100).fill('1').join(',')}\n`.repeat(1200)}`;
    // Every element of the array repeats the 150-character key: 240 KB come to 19 MB.
    const json = JSON.stringify({ ['k'.repeat(150)]: Array(120_000).fill(1) });
    for (const [fileName, bytes] of [
      ['wide.csv', new TextEncoder().encode(csv)],
      ['wide.json', new TextEncoder().encode(json)],
    ] as const) {
      assert.ok(bytes.length < 4 * 2 ** 20, `${fileName}: ${bytes.length} bytes`);
      const source = await ingested(h, bot.uuid, fileName, bytes);
      assert.equal(source.status, 'fail', fileName);
      assert.equal(
        JSON.parse(source.meta_json).error,
        'its text comes to more than 16 MB',
        fileName,
      );
    }
  });

  it('a PDF that takes longer than the limit to read fails with the reason, and the next is read', async () => {
    // 80 KB that unpack to 17 MB of drawing commands: seconds of pdfjs on any machine.
    const slow = await startHarness({ extractLimits: { timeMs: 1000 } });
    try {
      const bot = await slow.api.chatbots.create({ name: 'slow' });
      const dense = compressedPdf(17 * 2 ** 20);
      assert.ok(dense.length < 100_000, `${dense.length} bytes`);
      const source = await ingested(slow, bot.uuid, 'dense.pdf', dense);
      assert.equal(source.status, 'fail');
      assert.equal(JSON.parse(source.meta_json).error, 'it took longer than 1 s to read');
      const lift = await pdfFixture(['The lift is out of order.'], 'Lift');
      const read = await ingested(slow, bot.uuid, 'lift.pdf', lift);
      assert.equal(read.status, 'success', read.meta_json);
    } finally {
      await slow.close();
    }
  });

  it('the worker that read a PDF ends once idle for idleMs, and the next PDF starts another', async () => {
    // A heap size of its own: its workers are this server's alone.
    const brief = await startHarness({ extractLimits: { memoryMb: 500, idleMs: 300 } });
    try {
      const bot = await brief.api.chatbots.create({ name: 'brief' });
      const upload = async (line: string) =>
        (await ingested(brief, bot.uuid, 'lift.pdf', await pdfFixture([line], 'Lift'))).status;
      assert.equal(await upload('The lift is out of order.'), 'success');
      await until(() => idleReaders(500) === 0, 'the idle worker to end');
      assert.equal(await upload('The lift works again.'), 'success');
    } finally {
      await brief.close();
    }
  });

  it('a Markdown file nested 100,000 quotes deep is read as its plain text', async () => {
    const bot = await h.api.chatbots.create({ name: 'quotes' });
    const markdown = `${'>'.repeat(100_000)} The office cat is called Pixel.\n`;
    const source = await ingested(h, bot.uuid, 'quotes.md', markdown);
    assert.equal(source.status, 'success', source.meta_json);
    const session = await h.api.sessions.create(bot.uuid);
    const answer = await ask(h.api, session.uuid, 'What is the office cat called?');
    assert.match(answer.text, /The office cat is called Pixel/);
  });

  it('a JSON file nested 20,000 deep is read, each value with the nearest keys of its path', async () => {
    const bot = await h.api.chatbots.create({ name: 'deep' });
    const inner = JSON.stringify({ dog: 'Our office dog is called Biscuit.', cat: 'None.' });
    const json = `${'{"level":'.repeat(20_000)}${inner}${'}'.repeat(20_000)}`;
    const source = await ingested(h, bot.uuid, 'deep.json', json);
    assert.equal(source.status, 'success', source.meta_json);
    // Two lines of a path cut to 200 characters, not the 20,000 levels twice over.
    assert.ok(source.tokens < 1000, `${source.tokens} tokens`);
    const session = await h.api.sessions.create(bot.uuid);
    const answer = await ask(h.api, session.uuid, 'What is the office dog called?');
    assert.match(answer.text, /level dog: Our office dog is called Biscuit/);
  });

  it('the upload keeps reference_source_link and cites it as the url', async () => {
    const bot = await h.api.chatbots.create({ name: 'link' });
    const created = await h.api.sources.upload(
      bot.uuid,
      new Blob(['Our office dog is called Biscuit.']),
      {
        fileName: 'dog.txt',
        referenceSourceLink: 'https://example.com/team',
      },
    );
    await settled(h, bot.uuid, created.uuid);
    const session = await h.api.sessions.create(bot.uuid);
    const answer = await ask(h.api, session.uuid, "What is the office dog's name?");
    assert.equal(answer.citations?.[0]?.url, 'https://example.com/team');
  });

  it('a README without a top-level heading is named after its file, and its badges are no passage', async () => {
    const bot = await h.api.chatbots.create({ name: 'readme' });
    const created = await h.api.sources.upload(
      bot.uuid,
      new Blob([
        '<div align="center"><img src="logo.png" alt="Flame"></div>\n\n' +
          '[![Build](https://ci.test/flame/badge.svg)](https://ci.test/flame)\n' +
          '[![npm](https://badges.test/npm/flame)](https://npm.test/flame)\n\n' +
          'Flame is a small web framework.\n\n## Quick Start\n\nRun `npm create flame`.\n',
      ]),
      { fileName: 'flame.README.md' },
    );
    const source = await settled(h, bot.uuid, created.uuid);
    assert.equal(source.title, 'flame.README.md');
    const session = await h.api.sessions.create(bot.uuid);
    // "badge" and "npm" are words of the badges' addresses only.
    const answer = await ask(h.api, session.uuid, 'Which badge does the npm page show?');
    assert.doesNotMatch(answer.text, /ci\.test|badges\.test/);
  });
});

describe('retrieval and answers without an LLM', () => {
  let h: Harness;
  let bot: string;
  let qa: string;
  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Answers' })).uuid;
    qa = (
      await h.api.sources.createQa(bot, {
        question: 'What are your opening hours?',
        answer: 'We are open **9:00–17:00**, Monday to Friday.',
      })
    ).uuid;
    await h.api.sources.upload(
      bot,
      new Blob([
        'Alice talked about pizza at the team lunch. She prefers thin crust.\n\nThe office is on the third floor of the red building.',
      ]),
      { fileName: 'lunch.txt' },
    );
    await h.server.idle();
  });
  after(() => h.close());

  it('finds a passage through other word forms: "What did Alice talk about?" finds "Alice talked about pizza"', async () => {
    const session = await h.api.sessions.create(bot);
    const answer = await ask(h.api, session.uuid, 'What did Alice talk about?');
    assert.match(answer.text, /Alice talked about pizza/);
  });

  it('does not answer a question in German from the one English word its function words spell', async () => {
    const other = (await h.api.chatbots.create({ name: 'Kit' })).uuid;
    await h.api.sources.upload(
      other,
      new Blob(['The kit ships as ES modules with no bare imports, so it works from a CDN.']),
      { fileName: 'kit.txt' },
    );
    await h.server.idle();
    const session = await h.api.sessions.create(other);
    // "es" is German for "it": the passage on ES modules says nothing of a price.
    const german = await ask(h.api, session.uuid, 'Was kostet es?');
    assert.match(german.text, /couldn't find anything about that/);
    assert.equal(german.citations, undefined);
    const english = await ask(h.api, session.uuid, 'Does it ship ES modules?');
    assert.match(english.text, /ships as ES modules/);
  });

  it('gives the answer of a matching Q&A source verbatim', async () => {
    const session = await h.api.sessions.create(bot);
    const answer = await ask(h.api, session.uuid, 'opening hours?');
    assert.equal(answer.text, 'We are open **9:00–17:00**, Monday to Friday.');
    assert.equal(answer.citations?.[0]?.data_source_uuid, qa);
  });

  it('says honestly that the sources do not cover a question about something else', async () => {
    const session = await h.api.sessions.create(bot);
    const answer = await ask(h.api, session.uuid, 'What is the capital of Peru?');
    assert.match(answer.text, /couldn't find anything about that/);
    assert.equal(answer.citations, undefined);
    const [message] = await h.api.messages.list(session.uuid);
    assert.equal(message!.cite_data_json, '{}');
  });

  it('stores the cited passages in cite_data_json', async () => {
    const session = await h.api.sessions.create(bot);
    await ask(h.api, session.uuid, 'Which floor is the office on?');
    const [message] = await h.api.messages.list(session.uuid);
    const cites = JSON.parse(message!.cite_data_json) as Record<
      string,
      { text: string; file_name: string; type: string }
    >;
    assert.match(cites['1']!.text, /third floor/);
    assert.equal(cites['1']!.file_name, 'lunch.txt');
    assert.equal(cites['1']!.type, 'file');
  });

  it('without show_citations the answer has no [n] markers and no X-Citations', async () => {
    const quiet = await h.api.chatbots.create({ name: 'Quiet', show_citations: false });
    await h.api.sources.upload(quiet.uuid, new Blob(['Alice talked about pizza.']), {
      fileName: 'a.txt',
    });
    await h.server.idle();
    const session = await h.api.sessions.create(quiet.uuid);
    const answer = await ask(h.api, session.uuid, 'What did Alice talk about?');
    assert.match(answer.text, /pizza/);
    assert.doesNotMatch(answer.text, /\[\d\]/);
    assert.equal(answer.citations, undefined);
  });

  it("answers only from the answering agent's data_source_uuids unless use_all_sources", async () => {
    const scoped = await h.api.chatbots.create({ name: 'Scoped' });
    const cats = await h.api.sources.upload(
      scoped.uuid,
      new Blob(['Cats sleep sixteen hours a day.']),
      { fileName: 'cats.txt' },
    );
    await h.api.sources.upload(scoped.uuid, new Blob(['Dogs sleep twelve hours a day.']), {
      fileName: 'dogs.txt',
    });
    await h.server.idle();
    const [agent] = await h.api.agents.list(scoped.uuid);
    await h.api.agents.update(agent!.uuid, {
      use_all_sources: false,
      data_source_uuids: [cats.uuid],
    });
    const session = await h.api.sessions.create(scoped.uuid);
    const dogs = await ask(h.api, session.uuid, 'How long do dogs sleep?');
    assert.doesNotMatch(dogs.text, /twelve/);
    const catAnswer = await ask(h.api, session.uuid, 'How long do cats sleep?');
    assert.match(catAnswer.text, /sixteen/);
    await h.api.agents.update(agent!.uuid, { use_all_sources: true });
    const all = await ask(h.api, session.uuid, 'How long do dogs sleep?');
    assert.match(all.text, /twelve/);
  });

  it('a chatbot without an enabled user-facing agent says it cannot answer yet', async () => {
    const idle = await h.api.chatbots.create({ name: 'Idle' });
    const [agent] = await h.api.agents.list(idle.uuid);
    await h.api.agents.update(agent!.uuid, { enabled: false });
    const session = await h.api.sessions.create(idle.uuid);
    const answer = await ask(h.api, session.uuid, 'hello');
    assert.match(answer.text, /no enabled user-facing agent/);
  });

  it('a renamed source is cited by its new title', async () => {
    const named = await h.api.chatbots.create({ name: 'Named' });
    const src = await h.api.sources.upload(
      named.uuid,
      new Blob(['The lift is out of order today.']),
      { fileName: 'lift.txt' },
    );
    await h.server.idle();
    await h.api.sources.update(src.uuid, { title: 'Building notice' });
    const session = await h.api.sessions.create(named.uuid);
    const answer = await ask(h.api, session.uuid, 'Is the lift working?');
    assert.equal(answer.citations?.[0]?.title, 'Building notice');
  });

  it('a deleted source is no longer used for answers', async () => {
    const gone = await h.api.chatbots.create({ name: 'Gone' });
    const src = await h.api.sources.upload(
      gone.uuid,
      new Blob(['The secret password is swordfish.']),
      { fileName: 's.txt' },
    );
    await h.server.idle();
    const session = await h.api.sessions.create(gone.uuid);
    assert.match(
      (await ask(h.api, session.uuid, 'What is the secret password?')).text,
      /swordfish/,
    );
    await h.api.sources.delete(src.uuid);
    assert.doesNotMatch(
      (await ask(h.api, session.uuid, 'What is the secret password?')).text,
      /swordfish/,
    );
  });
});

describe('the other agents', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('an enabled human-escalation agent answers a request for a person with human_requested_message', async () => {
    const bot = await h.api.chatbots.create({ name: 'Escalate' });
    const agent = await h.api.agents.create(bot.uuid, { name: 'Humans', type: 'human-escalation' });
    const session = await h.api.sessions.create(bot.uuid);
    assert.doesNotMatch(
      (await ask(h.api, session.uuid, 'Can I talk to a human?')).text,
      /Someone will/,
    );
    await h.api.agents.update(agent.uuid, {
      enabled: true,
      human_escalation_settings: { human_requested_message: 'Someone will be with you shortly.' },
    });
    assert.equal(
      (await ask(h.api, session.uuid, 'Can I talk to a human?')).text,
      'Someone will be with you shortly.',
    );
    assert.equal(
      (await ask(h.api, session.uuid, 'I want to speak to a real person')).text,
      'Someone will be with you shortly.',
    );
    assert.notEqual(
      (await ask(h.api, session.uuid, 'What are your prices?')).text,
      'Someone will be with you shortly.',
    );
  });

  it('an enabled spam-defense agent answers spam with its default_message', async () => {
    const bot = await h.api.chatbots.create({ name: 'Spam' });
    await h.api.agents
      .create(bot.uuid, {
        name: 'Guard',
        type: 'spam-defense',
        default_message: 'No spam, please.',
      })
      .then((a) => h.api.agents.update(a.uuid, { enabled: true }));
    const session = await h.api.sessions.create(bot.uuid);
    assert.equal(
      (await ask(h.api, session.uuid, 'buy http://a.test http://b.test http://c.test')).text,
      'No spam, please.',
    );
    assert.equal(
      (await ask(h.api, session.uuid, `win ${'!'.repeat(40)}`)).text,
      'No spam, please.',
    );
    assert.notEqual((await ask(h.api, session.uuid, 'hello')).text, 'No spam, please.');
    await ask(h.api, session.uuid, 'hello');
    assert.equal((await ask(h.api, session.uuid, 'hello')).text, 'No spam, please.');
  });

  it('an enabled pre-canned agent answers its trigger phrases, and with an empty prompt stands in for "not covered"', async () => {
    const bot = await h.api.chatbots.create({ name: 'Canned' });
    const triggered = await h.api.agents.create(bot.uuid, {
      name: 'Refunds',
      type: 'pre-canned',
      prompt: 'refund policy\nmoney back',
      default_message: 'See our refund page.',
    });
    await h.api.agents.update(triggered.uuid, { enabled: true });
    const session = await h.api.sessions.create(bot.uuid);
    assert.equal(
      (await ask(h.api, session.uuid, 'What is your refund policy?')).text,
      'See our refund page.',
    );
    assert.equal(
      (await ask(h.api, session.uuid, 'Can I get my money back?')).text,
      'See our refund page.',
    );
    assert.match((await ask(h.api, session.uuid, 'Where is the moon?')).text, /couldn't find/);
    const fallback = await h.api.agents.create(bot.uuid, {
      name: 'Fallback',
      type: 'pre-canned',
      default_message: 'Please email us.',
    });
    await h.api.agents.update(fallback.uuid, { enabled: true });
    assert.equal((await ask(h.api, session.uuid, 'Where is the moon?')).text, 'Please email us.');
  });
});

describe('chunking', () => {
  it('cuts long text into chunks of bounded size that overlap', () => {
    const sentences = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} says something useful.`,
    );
    const chunks = chunkText(sentences.join(' '));
    assert.ok(chunks.length > 1);
    for (const chunk of chunks) assert.ok(chunk.length <= CHUNK_CHARS + 50);
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrevious = chunks[i - 1]!.split('. ').pop()!;
      assert.ok(
        chunks[i]!.includes(lastOfPrevious.replace(/\.$/, '')),
        `chunk ${i} should begin with the end of chunk ${i - 1}`,
      );
    }
  });
});
