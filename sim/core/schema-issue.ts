// Reading files and modules users hand us with zod schemas, and saying what is wrong in the one
// line a user reads: where, then what (`plan[0].at should be a whole number ≥ 0, not -3`). Only the
// first issue is told: fixing it and trying again is quicker than reading a list.
import { z } from 'zod';

/** `['plan', 0, 'at']` → `plan[0].at`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

export function kindOf(v: unknown): string {
  return v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

const NAMES: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object of named definitions',
  function: 'a function',
  null: 'null',
};

function shown(v: unknown): string {
  return typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v));
}

/** zod's error map, in our words: what is wrong, without where (`should be an array, not string`).
 *  A schema's own `error` takes precedence, so a schema can say it better where it knows more. */
export const describeIssue: z.core.$ZodErrorMap = (issue) => {
  const input: unknown = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = NAMES[issue.expected] ?? issue.expected;
      // A number that is not whole says which number; anything else says what kind it is.
      const got = issue.expected === 'int' && typeof input === 'number' ? shown(input) : kindOf(input);
      return `should be ${expected}, not ${got}`;
    }
    case 'too_small':
      if (issue.origin === 'array' || issue.origin === 'string' || issue.origin === 'set') {
        return Number(issue.minimum) === 1 ? 'should not be empty' : `should have at least ${issue.minimum} items`;
      }
      return `should be ${issue.inclusive ? '≥' : '>'} ${issue.minimum}, not ${shown(input)}`;
    case 'too_big':
      if (issue.origin === 'array' || issue.origin === 'string' || issue.origin === 'set')
        return `should have at most ${issue.maximum} items`;
      return `should be ${issue.inclusive ? '≤' : '<'} ${issue.maximum}, not ${shown(input)}`;
    case 'invalid_value':
      return `should be ${issue.values.map((v) => shown(v)).join(' or ')}, not ${shown(input)}`;
    case 'unrecognized_keys':
      return `has an unknown key '${issue.keys[0]}'`;
    case 'invalid_key':
      return `is not a valid name${issue.issues[0]?.message ? `: ${issue.issues[0].message}` : ''}`;
    default:
      return undefined;
  }
};

/** The first issue as one line: `where what`; at the top level `top what`, or just `what`. */
export function firstIssue(error: z.ZodError, top = ''): string {
  const issue = error.issues[0];
  if (!issue) return `${top} is not valid`.trim();
  const where = issuePath(issue.path) || top;
  const what = issue.message.replace(/\s*\n\s*/g, ' ');
  return where ? `${where} ${what}` : what;
}

/** Parse `value` with `schema`; on failure, the first issue as one line. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  top = '',
): { ok: true; value: z.output<T> } | { ok: false; message: string } {
  const r = schema.safeParse(value, { error: describeIssue });
  return r.success ? { ok: true, value: r.data } : { ok: false, message: firstIssue(r.error, top) };
}

/** An object with only these keys; another key is named with the valid ones. */
export function strictObject<S extends z.core.$ZodLooseShape>(shape: S) {
  const valid = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `has an unknown key '${issue.keys[0]}' (valid: ${valid})` : undefined),
  });
}
