// Virtual time for the wire tier. Real code (the SDK, msw, our HTTP adapters) keeps its real
// timers — the SDK's 60 s request timeout, its reconnection backoff, SSE keep-alives — but while a
// wire run is active `setTimeout`/`setInterval` are @sinonjs/fake-timers, so no timer ever waits on
// the wall clock. The driver fires the next timer only when the process has nothing else to do:
// the in-process parts have settled (a few turns of the real event loop with no activity) and no
// exchange with a real loopback server is still open. Outcomes then depend on the plan, not on
// how fast the machine is, and a 60 s deadline costs microseconds.
import * as FakeTimers from '@sinonjs/fake-timers';
import { realSleep, realTick } from './real-timers.ts';

type InstalledClock = ReturnType<typeof FakeTimers.install>;

const FAKED = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] as const;

let active: VirtualTime | null = null;

export class VirtualTime {
  private clock: InstalledClock | null = null;
  /** Bumped by every part on every event: settling waits until it stops moving. */
  activity = 0;
  /** Exchanges with a real (loopback) server still open: their progress is on the wall clock. */
  private realPending = 0;
  /** Real work that holds virtual time however long it is silent (a restarted server booting). */
  private held = 0;

  install(): void {
    if (active) throw new Error('a wire run is already active in this process (wire runs are sequential)');
    this.clock = FakeTimers.install({ toFake: [...FAKED], now: 0, loopLimit: 100_000 });
    active = this;
  }

  uninstall(): void {
    if (active !== this) return;
    this.clock?.uninstall();
    this.clock = null;
    active = null;
  }

  get now(): number {
    return this.clock?.now ?? 0;
  }

  /** A virtual sleep (a latency, a `delay:` fault): a faked timer the driver fires in order. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Track an exchange with a real server: while one is open, time does not advance. */
  real<T>(p: Promise<T>): Promise<T> {
    this.realPending++;
    return p.finally(() => {
      this.realPending--;
      this.activity++;
    });
  }

  /** Hold virtual time until `p` settles, however long it takes on the wall clock: a server restart is
   *  one instant of the run, so no deadline fires while the process boots, whatever its boot time. */
  hold<T>(p: Promise<T>): Promise<T> {
    this.held++;
    return p.finally(() => {
      this.held--;
      this.activity++;
    });
  }

  realOpened(): void {
    this.realPending++;
  }

  realClosed(): void {
    this.realPending--;
    this.activity++;
  }

  /**
   * Wait until nothing in the process moves without a timer: two consecutive real event-loop
   * turns with no activity and no real exchange open. An open real exchange is waited for on the
   * wall clock while it makes progress; one that has been silent for `stallMs` (a body nobody
   * reads any more, a server that never answers) no longer holds virtual time back.
   */
  async settle(stallMs = 1000): Promise<void> {
    let quiet = 0;
    let silentMs = 0;
    for (;;) {
      if (quiet >= 2) {
        // Settled: whoever waits for that (a stream gathered for the fault rules) goes on, and may move things.
        if (this.idleWaiters.length === 0) return;
        for (const wake of this.idleWaiters.splice(0)) wake();
        quiet = 0;
        this.activity++;
        continue;
      }
      const before = this.activity;
      if (this.held > 0) {
        await realSleep(1);
        quiet = 0;
        continue;
      }
      if (this.realPending > 0 && silentMs < stallMs) {
        await realSleep(1);
        silentMs = this.activity === before ? silentMs + 1 : 0;
        quiet = 0;
        continue;
      }
      await realTick();
      quiet = this.activity === before ? quiet + 1 : 0;
    }
  }

  private readonly idleWaiters: (() => void)[] = [];

  /** Resolves when the process next settles: what has not happened by then waits on a timer (or forever). */
  idle(): Promise<void> {
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Fire the next timer (advancing virtual time to it). False when none is pending. */
  advance(): boolean {
    if (!this.clock || this.clock.countTimers() === 0) return false;
    this.clock.next();
    this.activity++;
    return true;
  }

  pendingTimers(): number {
    return this.clock?.countTimers() ?? 0;
  }
}
