import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSoak } from '../bench/soak.bench.js';

// The soak benchmark's short form: its figures are for `npm run bench:soak`; here only what
// must hold on any machine, however loaded.
describe('a short soak of the real server', () => {
  it('should answer every visitor, with 429s only past the rate limit and no other error, while sources come and go', async () => {
    const result = await runSoak({ sessions: 20, minutes: 0.2, chunks: 400, rateLimit: [3, 60] });
    assert.deepEqual(result.unexpected, []);
    assert.equal(result.unanswered, 0);
    assert.ok(result.answers >= 20, `${result.answers} answers`);
    // Visitors ask every 1-3 s for 12 s: each one passes 3 answers a minute.
    assert.ok(result.limited > 0, 'no visitor reached the rate limit');
    assert.ok(result.churn.added > 0);
    assert.ok(result.chunks >= 300, `${result.chunks} chunks`);
  });
});
