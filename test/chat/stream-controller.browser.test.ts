import { expect } from '@open-wc/testing';
import { StreamController } from '../../src/chat/stream-controller.js';
import { fakeService, TestHost, until } from './helpers.js';

describe('StreamController', () => {
  it('should hand over an answer’s first words as they are read, later ones once per frame', async () => {
    // Frames held back: whatever reaches onText meanwhile did not wait for one.
    const realFrame = window.requestAnimationFrame;
    const held: FrameRequestCallback[] = [];
    window.requestAnimationFrame = (callback) => held.push(callback);
    let release!: () => void;
    const secondChunk = new Promise<void>((resolve) => {
      release = resolve;
    });
    let gates = 0;
    const service = fakeService([
      {
        chunks: ['Hello', ' world'],
        gate: () => (gates++ === 0 ? Promise.resolve() : secondChunk),
      },
    ]);
    const host = new TestHost();
    const stream = new StreamController(host);
    const texts: string[] = [];
    try {
      const outcome = stream.start(service.client, 's-1', 'q', { onText: (t) => texts.push(t) });
      // Before, the first words waited for a frame: 7-15 ms of the first answer (bench:chat).
      await until(() => texts.length > 0, 'the first words without a frame');
      expect(texts).to.deep.equal(['Hello']);
      release();
      await until(() => held.length > 0, 'the next words to wait for a frame');
      expect(texts).to.deep.equal(['Hello']);
      window.requestAnimationFrame = realFrame;
      for (const callback of held.splice(0)) callback(performance.now());
      expect((await outcome).kind).to.equal('done');
      expect(texts.at(-1)).to.equal('Hello world');
    } finally {
      window.requestAnimationFrame = realFrame;
    }
  });
});
