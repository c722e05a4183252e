import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NetworkError } from '../../src/api/errors.js';
import { describeError } from '../../src/chat/errors.js';
import { type ChatStrings, chatStrings } from '../../src/ui/strings/chat.js';
import { chatDe } from '../../src/ui/strings/chat-de.js';

const request = { method: 'POST', path: '/api/v1/session/s/message/stream' } as const;

describe('describeError', () => {
  it('should say the browser is offline, not that a connection was lost, when it is', () => {
    const error = new NetworkError(request, new TypeError('Failed to fetch'));
    const offline = describeError(error, chatStrings.en, 0, false);
    assert.equal(offline.kind, 'network');
    assert.equal(offline.retryable, true);
    assert.equal(offline.message, chatStrings.en.errorOffline);
    assert.doesNotMatch(offline.message, /What arrived is kept/);
    const de: ChatStrings = { ...chatStrings.en, ...chatDe } as ChatStrings;
    assert.equal(describeError(error, de, 0, false).message, de.errorOffline);
    assert.notEqual(de.errorOffline, chatStrings.en.errorOffline, 'German has its own');
    assert.equal(
      describeError(error, chatStrings.en, 0, true).message,
      chatStrings.en.errorNetwork,
    );
  });
});
