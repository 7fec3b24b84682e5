// Bad input is a one-line message and exit code 2, never a stack trace.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `incomplete`: the run ended before it could say (an out-of-process check's watchdog, or its served
 *  server failed; a bounded search stopped before its bound, explore --max-states). `broken`: `check`'s
 *  combination fails a call with no fault at all (compare/fault-free.ts), so no fault was tried. */
export const EXIT = { ok: 0, violated: 1, badInput: 2, internal: 3, incomplete: 4, broken: 5 } as const;
