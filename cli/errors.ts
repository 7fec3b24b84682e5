// Bad input is a one-line message and exit code 2, never a stack trace.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `incomplete`: a bounded search stopped before its bound (explore --max-states), so no "holds" was proved to it. */
export const EXIT = { ok: 0, violated: 1, badInput: 2, internal: 3, incomplete: 4 } as const;
