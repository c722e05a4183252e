import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSize } from '../../src/ui/format-size.js';

describe('formatSize', () => {
  it('should say bytes whole and larger sizes to one decimal, in the unit a reader expects', () => {
    assert.equal(formatSize(43, 'en'), '43 B');
    assert.equal(formatSize(1023, 'en'), '1,023 B');
    assert.equal(formatSize(12_700, 'en'), '12.4 KB');
    assert.equal(formatSize(10 * 1024 * 1024, 'en'), '10 MB');
    assert.equal(formatSize(1.5 * 1024 ** 3, 'en'), '1.5 GB');
    // Past gigabytes the unit stays: a number, not a missing unit.
    assert.equal(formatSize(2 * 1024 ** 4, 'en'), '2,048 GB');
  });

  it("should write the number in the reader's language", () => {
    assert.equal(formatSize(1.5 * 1024 * 1024, 'de'), '1,5 MB');
    assert.equal(formatSize(0, 'de'), '0 B');
  });
});
