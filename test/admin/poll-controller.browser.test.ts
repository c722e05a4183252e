import { expect } from '@open-wc/testing';
import { PollController } from '../../src/admin/poll-controller.js';
import { BareHost } from './bare-host.js';

/** Replaces setTimeout and clearTimeout with a clock the test advances by hand. */
function manualClock() {
  const real = { setTimeout: window.setTimeout, clearTimeout: window.clearTimeout };
  const timers = new Map<number, { run: () => void; ms: number }>();
  let next = 1;
  window.setTimeout = ((run: () => void, ms = 0) => {
    timers.set(next, { run, ms });
    return next++;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id: number) => void timers.delete(id)) as typeof window.clearTimeout;
  return {
    /** The delays of the timers waiting. */
    waiting: () => [...timers.values()].map((t) => t.ms),
    /** Runs the one timer waiting; returns its delay. */
    fire(): number {
      const [id, timer] = [...timers][0]!;
      timers.delete(id);
      timer.run();
      return timer.ms;
    },
    restore(): void {
      Object.assign(window, real);
    },
  };
}

describe('PollController', () => {
  let clock: ReturnType<typeof manualClock>;
  beforeEach(() => {
    clock = manualClock();
  });
  afterEach(() => clock.restore());

  /** A connected host whose every poll reports back, as a list Task's completion does. */
  function polling(pending = () => true) {
    const host = new BareHost();
    let polls = 0;
    const poll: PollController = new PollController(host, {
      pending: () => pending(),
      poll: () => {
        polls += 1;
        poll.schedule();
      },
    });
    host.connect();
    return { host, poll, polls: () => polls };
  }

  it('should not poll by itself on the first connection: the first load schedules', () => {
    const { poll } = polling();
    expect(poll.active).to.equal(false);
    expect(clock.waiting()).to.deep.equal([]);
  });

  it('should wait 1 s, 2 s, 4 s … up to 15 s while something is pending', () => {
    const { poll, polls } = polling();
    poll.schedule();
    expect(poll.active).to.equal(true);
    const delays = Array.from({ length: 7 }, () => clock.fire());
    expect(delays).to.deep.equal([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
    expect(polls()).to.equal(7);
  });

  it('should stop once nothing is pending, and start again at 1 s', () => {
    let pending = true;
    const { poll } = polling(() => pending);
    poll.schedule();
    clock.fire();
    clock.fire();
    pending = false;
    clock.fire();
    expect(poll.active).to.equal(false);
    pending = true;
    poll.schedule();
    expect(clock.waiting()).to.deep.equal([1000]);
  });

  it('should start over at 1 s when told that new work began', () => {
    const { poll } = polling();
    poll.schedule();
    clock.fire();
    clock.fire();
    expect(clock.waiting()).to.deep.equal([4000]);
    poll.schedule(true);
    expect(clock.waiting()).to.deep.equal([1000]);
  });

  it('should keep one timer however often it is scheduled', () => {
    const { poll } = polling();
    poll.schedule();
    poll.schedule();
    poll.schedule(true);
    expect(clock.waiting()).to.have.length(1);
  });

  it('should stop when the host disconnects, and pick up again when it reconnects', () => {
    const { host, poll } = polling();
    poll.schedule();
    host.disconnect();
    expect(poll.active).to.equal(false);
    expect(clock.waiting()).to.deep.equal([]);
    poll.schedule();
    expect(poll.active, 'no polling while disconnected').to.equal(false);
    host.connect();
    expect(poll.active).to.equal(true);
  });

  it('should use the delays it is given', () => {
    const host = new BareHost();
    const poll: PollController = new PollController(host, {
      pending: () => true,
      poll: () => poll.schedule(),
      first: 50,
      max: 120,
    });
    host.connect();
    poll.schedule();
    expect([clock.fire(), clock.fire(), clock.fire()]).to.deep.equal([50, 100, 120]);
  });
});
