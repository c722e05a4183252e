import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NetworkError, TimeoutError } from '../../src/api/errors.js';
import { describeError } from '../../src/chat/errors.js';
import { type ChatStrings, chatStrings } from '../../src/ui/strings/chat.js';
import { chatDe } from '../../src/ui/strings/chat-de.js';

const request = { method: 'POST', path: '/api/v1/session/s/message/stream' } as const;

describe('describeError', () => {
  it('should say the browser is offline, not that a connection was lost, when it is', () => {
    const error = new NetworkError(request, new TypeError('Failed to fetch'));
    const offline = describeError(error, chatStrings.en, false, 0, false);
    assert.equal(offline.kind, 'network');
    assert.equal(offline.retryable, true);
    assert.equal(offline.message, chatStrings.en.errorOffline);
    assert.doesNotMatch(offline.message, /What arrived is kept/);
    const de: ChatStrings = { ...chatStrings.en, ...chatDe } as ChatStrings;
    assert.equal(describeError(error, de, false, 0, false).message, de.errorOffline);
    assert.notEqual(de.errorOffline, chatStrings.en.errorOffline, 'German has its own');
    assert.equal(
      describeError(error, chatStrings.en, false, 0, true).message,
      chatStrings.en.errorNetwork,
    );
  });

  it('should say what is kept: the question, or also what arrived of the answer', () => {
    const lost = new NetworkError(request, new TypeError('network error'));
    const stalled = new TimeoutError(request, 60_000);
    const de: ChatStrings = { ...chatStrings.en, ...chatDe } as ChatStrings;
    for (const strings of [chatStrings.en, de]) {
      const none = [lost, stalled].map((e) => describeError(e, strings, false, 0, true).message);
      const some = [lost, stalled].map((e) => describeError(e, strings, true, 0, true).message);
      assert.deepEqual(none, [strings.errorNetwork, strings.errorTimeout]);
      assert.deepEqual(some, [strings.errorNetworkPartial, strings.errorTimeoutPartial]);
      for (const message of none) assert.doesNotMatch(message, /arrived|Empfangene/);
      for (const message of some) assert.match(message, /arrived|Empfangene/);
    }
    assert.notEqual(de.errorNetwork, chatStrings.en.errorNetwork, 'German has its own');
    assert.notEqual(de.errorTimeoutPartial, chatStrings.en.errorTimeoutPartial);
  });
});
