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
