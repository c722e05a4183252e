import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterAndSort, type SourceQuery, statusGroup } from '../../src/admin/source-filter.js';
import type { DataSource, SourceTag } from '../../src/api/types.js';

let serial = 0;
function source(patch: Partial<DataSource>): DataSource {
  serial += 1;
  return {
    uuid: `s${serial}`,
    title: `Source ${serial}`,
    type: 'qa',
    status: 'success',
    file_name: '',
    file_size: 0,
    tokens: 0,
    meta_json: '{}',
    created_at: '2026-01-01T00:00:00Z',
    modified_at: '2026-01-01T00:00:00Z',
    ...patch,
  };
}

function tag(uuid: string, members: DataSource[]): SourceTag {
  return {
    uuid,
    name: uuid,
    color: '#112233',
    data_source_uuids: members.map((s) => s.uuid),
    created_at: '2026-01-01T00:00:00Z',
    modified_at: '2026-01-01T00:00:00Z',
  };
}

const ALL: SourceQuery = {
  search: '',
  type: '',
  status: '',
  tag: '',
  tags: [],
  sortKey: 'created_at',
  sortDir: -1,
  lang: 'en',
};

const titles = (rows: DataSource[]) => rows.map((s) => s.title);

describe('filterAndSort', () => {
  const ferry = source({ title: 'Ferry times', type: 'file', file_name: 'ferries.txt' });
  const parking = source({ title: 'Parking', type: 'qa', status: 'embedding' });
  const harbour = source({ title: '', type: 'link', file_name: 'Harbour.html', status: 'fail' });
  const sources = [ferry, parking, harbour];

  it('returns every source with no filter, and leaves the input as it was', () => {
    const before = [...sources];
    assert.equal(filterAndSort(sources, ALL).length, 3);
    assert.deepEqual(sources, before);
  });

  it('filters by type', () => {
    assert.deepEqual(filterAndSort(sources, { ...ALL, type: 'file' }), [ferry]);
  });

  it('filters by status group: in progress, success, and anything else as failed', () => {
    assert.deepEqual(filterAndSort(sources, { ...ALL, status: 'progress' }), [parking]);
    assert.deepEqual(filterAndSort(sources, { ...ALL, status: 'success' }), [ferry]);
    assert.deepEqual(filterAndSort(sources, { ...ALL, status: 'failed' }), [harbour]);
    assert.equal(statusGroup('queued'), 'progress');
    assert.equal(statusGroup('something new'), 'failed');
  });

  it('searches titles and file names, ignoring case and surrounding spaces', () => {
    assert.deepEqual(filterAndSort(sources, { ...ALL, search: '  FERRY ' }), [ferry]);
    assert.deepEqual(filterAndSort(sources, { ...ALL, search: 'harbour' }), [harbour]);
    assert.deepEqual(filterAndSort(sources, { ...ALL, search: 'nothing like it' }), []);
  });

  it("shows a tag's members only, and nothing for a tag not loaded yet", () => {
    const tags = [tag('t1', [ferry, harbour])];
    assert.deepEqual(
      filterAndSort(sources, { ...ALL, tag: 't1', tags, sortKey: 'title', sortDir: 1 }),
      [ferry, harbour],
    );
    assert.deepEqual(filterAndSort(sources, { ...ALL, tag: 'unknown', tags }), []);
  });

  it('combines the filters', () => {
    const tags = [tag('t1', [ferry, parking])];
    assert.deepEqual(
      filterAndSort(sources, { ...ALL, tag: 't1', tags, type: 'qa', search: 'park' }),
      [parking],
    );
  });

  it('sorts titles in human order, by file name when untitled, either way', () => {
    const docs = [
      source({ title: 'Doc 10' }),
      source({ title: 'doc 2' }),
      source({ title: '', file_name: 'Doc 3.txt' }),
    ];
    const up = filterAndSort(docs, { ...ALL, sortKey: 'title', sortDir: 1 });
    assert.deepEqual(titles(up), ['doc 2', '', 'Doc 10']);
    assert.equal(up[1]!.file_name, 'Doc 3.txt');
    const down = filterAndSort(docs, { ...ALL, sortKey: 'title', sortDir: -1 });
    assert.deepEqual(titles(down), ['Doc 10', '', 'doc 2']);
  });

  it('sorts numbers by value and timestamps by time, keeping list order for ties', () => {
    const rows = [
      source({ title: 'a', file_size: 900, created_at: '2026-03-01T00:00:00Z' }),
      source({ title: 'b', file_size: 80, created_at: '2026-01-01T00:00:00Z' }),
      source({ title: 'c', file_size: 80, created_at: '2026-02-01T00:00:00Z' }),
    ];
    assert.deepEqual(titles(filterAndSort(rows, { ...ALL, sortKey: 'file_size', sortDir: 1 })), [
      'b',
      'c',
      'a',
    ]);
    assert.deepEqual(titles(filterAndSort(rows, { ...ALL, sortKey: 'created_at' })), [
      'a',
      'c',
      'b',
    ]);
  });
});
