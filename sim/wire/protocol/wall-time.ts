// The wall clock of a run whose client is a real process (a harness behind cmd-client.ts, or any
// client of `mcp-faultsim proxy`): that client keeps its own real timers, so the run cannot be on
// virtual time. The fault network only asks its clock for `now`, `sleep` and `idle`; here they are
// real. History stamps are real milliseconds since the run began (so such a history is not
// byte-reproducible), and a plan's virtual waits become real sleeps capped at `maxSleepMs`: a
// latency of 5 ms stays 5 ms, a `delay:` fault meant to outlast a 30 s deadline sleeps the cap
// (10 s by default), which still outlasts the harness's deadline (cmd-client.ts asks for 5 s).
import { VirtualTime } from './virtual-time.ts';
import { realSleep } from './real-timers.ts';

export const DEFAULT_MAX_SLEEP_MS = 10_000;
/** Real ms without activity after which a stream gathered for a fault rule counts as held open. */
const IDLE_MS = 1000;

export class WallTime extends VirtualTime {
  private readonly origin = performance.now();

  constructor(readonly maxSleepMs = DEFAULT_MAX_SLEEP_MS) {
    super();
  }

  override install(): void {}
  override uninstall(): void {}

  override get now(): number {
    return Math.round(performance.now() - this.origin);
  }

  override sleep(ms: number): Promise<void> {
    return ms <= 0 ? Promise.resolve() : realSleep(Math.min(ms, this.maxSleepMs));
  }

  /** Resolves once nothing has moved for IDLE_MS of real time. */
  override async idle(): Promise<void> {
    let seen = this.activity;
    for (;;) {
      await realSleep(IDLE_MS);
      if (this.activity === seen) return;
      seen = this.activity;
    }
  }

  override async settle(): Promise<void> {}

  override advance(): boolean {
    return false;
  }
}
