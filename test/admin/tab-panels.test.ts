import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_TABS } from '../../src/admin/events.js';
import { TABS } from '../../src/admin/tab-panels.js';
import { tabAfterKey } from '../../src/admin/tab-row.js';

describe('tabAfterKey', () => {
  it('should move right and left, wrapping around at either end', () => {
    assert.equal(tabAfterKey('ArrowRight', 0, 7), 1);
    assert.equal(tabAfterKey('ArrowRight', 6, 7), 0);
    assert.equal(tabAfterKey('ArrowLeft', 3, 7), 2);
    assert.equal(tabAfterKey('ArrowLeft', 0, 7), 6);
  });

  it('should move toward the tab drawn on the arrow’s side, right to left too', () => {
    assert.equal(tabAfterKey('ArrowLeft', 0, 7, true), 1);
    assert.equal(tabAfterKey('ArrowLeft', 6, 7, true), 0);
    assert.equal(tabAfterKey('ArrowRight', 3, 7, true), 2);
    assert.equal(tabAfterKey('ArrowRight', 0, 7, true), 6);
  });

  it('should go to the first tab on Home and the last on End', () => {
    assert.equal(tabAfterKey('Home', 4, 7), 0);
    assert.equal(tabAfterKey('End', 1, 7), 6);
  });

  it('should not move for any other key', () => {
    for (const key of ['ArrowUp', 'ArrowDown', 'Enter', ' ', 'a']) {
      assert.equal(tabAfterKey(key, 2, 7), -1);
    }
  });
});

describe('TABS', () => {
  it('should name every tab, each with a panel element but "Try it"', () => {
    assert.deepEqual(Object.keys(TABS).sort(), [...ADMIN_TABS].sort());
    for (const tab of ADMIN_TABS) {
      assert.equal(TABS[tab].panel === undefined, tab === 'try', tab);
    }
  });
});
