// A progress line on stderr, only when stderr is a terminal and not --quiet: a log or a pipe gets
// nothing, so output stays byte-identical between runs. It shows done/total, the time elapsed and an
// estimate of the time left, and is redrawn at least once a second while the event loop is free (a
// worker pool's wait) as well as on every update (a long synchronous cell reports its runs).
export interface Progress {
  /** `fraction` (0..1) refines done/total for the estimate: how far into the current item it is. */
  update(done: number, total: number, label?: string, fraction?: number): void;
  done(): void;
}

const TICK_MS = 1000;

export function seconds(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - 60 * m)).padStart(2, '0')} s`;
}

/** `clock` is injectable for tests of the arithmetic; the CLI reads the wall clock here (cli/ may). */
export function progressLine(
  state: { done: number; total: number; label: string; fraction: number },
  elapsedMs: number,
  width = 80,
): string {
  const { done, total, label } = state;
  const f = total === 0 ? 1 : Math.min(1, (done + state.fraction) / total);
  const bar = 20;
  const filled = Math.round(f * bar);
  const left = f > 0 && f < 1 && elapsedMs > 500 ? ` · ~${seconds((elapsedMs * (1 - f)) / f)} left` : f === 0 ? ' · estimating' : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(bar - filled)}] ${done}/${total} · ${seconds(elapsedMs)} elapsed${left} ${label}`.slice(
    0,
    Math.max(20, width - 1),
  );
}

export function progressBar(enabled: boolean, stream: NodeJS.WriteStream = process.stderr, clock: () => number = Date.now): Progress {
  if (!enabled || !stream.isTTY) return { update() {}, done() {} };
  const started = clock();
  let state: { done: number; total: number; label: string; fraction: number } | null = null;
  let last = '';
  let drawnAt = 0;
  const draw = (force: boolean) => {
    if (!state) return;
    const now = clock();
    if (!force && now - drawnAt < 100) return; // at most ten redraws a second from updates
    const line = progressLine(state, now - started, stream.columns || 80);
    drawnAt = now;
    if (line !== last) stream.write(`\r${line}\x1b[K`);
    last = line;
  };
  const timer = setInterval(() => draw(true), TICK_MS);
  timer.unref();
  return {
    update(done, total, label = '', fraction = 0) {
      state = { done, total, label, fraction };
      draw(false);
    },
    done() {
      clearInterval(timer);
      if (last) stream.write('\r\x1b[K');
      last = '';
      state = null;
    },
  };
}
