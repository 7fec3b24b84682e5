// The wall-clock watchdog of out-of-process runs — the only wall clock there. Everything else in a
// wire run is virtual time (virtual-time.ts); a real server, though, can leave the tool waiting on
// the real clock for ever (a reply that never comes, a stream held open). Each run against a real
// process is armed on its start and disarmed on its end; a run that takes longer than `limitMs`
// ends the command with its own outcome, `watchdog`, naming the run and what was still open —
// never a silent success. While armed, its timer keeps the process alive, so a run stuck on nothing
// ends by the watchdog and not by Node's "unsettled top-level await" (exit 13, no output).
import { openLoopbackRequests } from './loopback-fetch.ts';
import { REAL } from '../protocol/real-timers.ts';

export const DEFAULT_WATCHDOG_MS = 60_000;

/** Why an out-of-process command stopped before its report: its own outcome. */
export interface Aborted {
  outcome: 'watchdog' | 'server-failed';
  /** One line for the user. */
  why: string;
  /** The run in progress, counted from 1 over every run against this server (shrinking included). */
  run: number;
  /** Exchanges with the real server still open then. */
  open: string[];
  limitMs?: number;
}

export class Watchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private runs = 0;
  private fire!: (a: Aborted) => void;
  private fired = false;
  /** Resolves when a run has overstayed, or `abort` was called; never otherwise. */
  readonly aborted: Promise<Aborted>;

  constructor(
    readonly limitMs: number = DEFAULT_WATCHDOG_MS,
    private readonly open: () => string[] = openLoopbackRequests,
  ) {
    this.aborted = new Promise((resolve) => (this.fire = resolve));
  }

  get run(): number {
    return this.runs;
  }

  /** True once the command has been ended (a run overstayed, or `abort`): a run still going should stop. */
  get hasFired(): boolean {
    return this.fired;
  }

  runStarted(): void {
    this.runs++;
    this.disarm();
    const run = this.runs;
    this.timer = REAL.setTimeout(() => {
      const why = `run ${run} did not finish within ${this.limitMs / 1000} s of wall-clock time (the watchdog)`;
      this.abort({ outcome: 'watchdog', why, run, open: this.open(), limitMs: this.limitMs });
    }, this.limitMs);
  }

  runEnded(): void {
    this.disarm();
  }

  /** End the command with `a` (the served server failed, say); the first call wins. */
  abort(a: Aborted): void {
    if (this.fired) return;
    this.fired = true;
    this.disarm();
    this.fire(a);
  }

  disarm(): void {
    if (this.timer !== undefined) REAL.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
