// Bad input is a one-line message and exit code 2, never a stack trace.
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EXIT = { ok: 0, violated: 1, badInput: 2, internal: 3 } as const;
