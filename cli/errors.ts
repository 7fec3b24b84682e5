// Bad input is a one-line message and exit code 2, never a stack trace.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `incomplete`: an out-of-process check ended before its report (its watchdog, or its served server failed). */
export const EXIT = { ok: 0, violated: 1, badInput: 2, internal: 3, incomplete: 4 } as const;
