// The real timers, captured when this module loads: virtual-time.ts imports it, so before any wire
// run fakes them. Waits on real I/O (a loopback server, a child process, the watchdog) use these.
// Apart from virtual-time.ts so that what only waits on the wall clock never loads fake-timers.

export const REAL = {
  setImmediate: globalThis.setImmediate,
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
};

export const realTick = (): Promise<void> => new Promise((resolve) => REAL.setImmediate(resolve));
export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => REAL.setTimeout(resolve, ms));

/** `p`'s value, or `late` once `ms` of the wall clock have passed, whichever comes first. The timer is
 *  cleared as soon as the race is decided: a `Promise.race` with `realSleep` left it pending, and a
 *  pending timer holds the process open for the rest of its wait (`audit --serve` exited a second
 *  after its report was written, waiting on the race that bounds a server's exit event). */
export function withinRealMs<T, U>(p: Promise<T>, ms: number, late: U): Promise<T | U> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<U>((resolve) => {
    timer = REAL.setTimeout(() => resolve(late), ms);
  });
  return Promise.race([p, timeout]).finally(() => REAL.clearTimeout(timer));
}
