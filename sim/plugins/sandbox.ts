// How a designer's hook is called: on a copy of its input (it cannot corrupt the model's state),
// under a time limit (a hook that loops forever is stopped, not waited for), and with its answer
// checked and normalized before the model sees it. Any failure is a PolicyError naming the policy,
// which the exploration turns into a `policy-error` finding. Built-in policies never pass here.
//
// The time limit is the one wall-clock bound in the model tier: it cannot change the result of a
// hook that returns, only stop one that does not (Node's vm watchdog interrupts the running code).
import vm from 'node:vm';
import { capSet, type Capability, type CapabilitySet } from '../../models/capabilities.ts';
import { PolicyError } from '../../models/additions.ts';

/** How long one call of a designer's hook may take. */
export const HOOK_TIME_LIMIT_MS = 1000;

const context = vm.createContext({});
const script = new vm.Script('__hook(__input)');

function describe(v: unknown): string {
  const text = (() => {
    try {
      return JSON.stringify(v) ?? String(v);
    } catch {
      return String(v);
    }
  })();
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** What a hook (or a module being loaded) that calls process.exit gets instead of an exit: ending
 *  the process would read as a run that finished with every property holding. */
export class ExitCalled extends Error {
  constructor(readonly code: string) {
    super(`process.exit(${code}) called`);
  }
}

function exitForbidden(code?: string | number | null): never {
  throw new ExitCalled(code === undefined || code === null ? '' : String(code));
}

/** Run `f` with process.exit replaced by a throw of ExitCalled. */
export async function withoutExit<T>(f: () => Promise<T>): Promise<T> {
  const exit = process.exit;
  process.exit = exitForbidden;
  try {
    return await f();
  } finally {
    process.exit = exit;
  }
}

/** What a checker makes of a hook's raw answer: the value the model uses, or why there is none. */
export type Checked<O> = { value: O } | { error: string };
export const ok = <O>(value: O): Checked<O> => ({ value });
export const bad = (error: string): Checked<never> => ({ error });

/** Wrap one hook: `check` turns its raw answer (given the input) into what the model uses, or says why it cannot. */
export function sandboxed<I, O>(
  policy: string,
  hook: string,
  fn: (input: I) => unknown,
  check: (raw: unknown, input: I) => Checked<O>,
): (input: I) => O {
  return (input: I): O => {
    let raw: unknown;
    const exit = process.exit;
    try {
      context.__hook = fn;
      context.__input = structuredClone(input);
      process.exit = exitForbidden;
      raw = script.runInContext(context, { timeout: HOOK_TIME_LIMIT_MS });
    } catch (e) {
      if (e instanceof ExitCalled)
        throw new PolicyError(policy, `${hook} called process.exit(${e.code}): a hook may not end the process`, 'threw');
      if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new PolicyError(policy, `${hook} did not return within ${HOOK_TIME_LIMIT_MS} ms`, 'timeout');
      }
      const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      throw new PolicyError(policy, `${hook} threw ${message}`, 'threw');
    } finally {
      process.exit = exit;
      context.__hook = undefined;
      context.__input = undefined;
    }
    const out = check(raw, input);
    if ('error' in out) throw new PolicyError(policy, `${hook} returned ${describe(raw)}: ${out.error}`, 'bad-return');
    return out.value;
  };
}

const CAPABILITIES: readonly Capability[] = ['tools', 'resources', 'tools.streaming', 'streaming-progress'];

export function capabilities(raw: unknown): Checked<CapabilitySet> {
  if (!Array.isArray(raw)) return bad('expected an array of capabilities');
  const unknown = raw.find((c) => !CAPABILITIES.includes(c as Capability));
  return unknown === undefined
    ? ok(capSet(raw as Capability[]))
    : bad(`unknown capability ${describe(unknown)} (valid: ${CAPABILITIES.join(', ')})`);
}

export function oneOf<T extends string>(values: readonly T[]): (raw: unknown) => Checked<T> {
  return (raw) => (values.includes(raw as T) ? ok(raw as T) : bad(`expected one of ${values.map((v) => `'${v}'`).join(', ')}`));
}

export function reasonOrNull(raw: unknown): Checked<string | null> {
  if (raw === null || raw === undefined) return ok(null);
  return typeof raw === 'string' && raw.length > 0 ? ok(raw) : bad('expected null (pass) or a non-empty string (the reason to refuse)');
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A response a fault may answer with or rewrite: status, string headers, and a body of a known kind. */
export function httpResponse(raw: unknown): string | null {
  if (!isRecord(raw)) return 'a response must be an object';
  if (!Number.isInteger(raw.status) || (raw.status as number) < 100 || (raw.status as number) > 599)
    return 'a response needs an HTTP status from 100 to 599';
  if (!isRecord(raw.headers) || Object.values(raw.headers).some((h) => typeof h !== 'string'))
    return 'a response needs headers: an object of strings';
  const body = raw.body;
  if (!isRecord(body) || !['json', 'sse', 'empty'].includes(body.kind as string))
    return "a response body needs kind 'json', 'sse' or 'empty' (use jsonResponse, errorResponse or emptyResponse)";
  if (body.kind === 'sse' && (!Array.isArray(body.events) || typeof body.complete !== 'boolean'))
    return 'an SSE body needs events (an array) and complete (a boolean)';
  if (body.kind === 'json' && !isRecord(body.message)) return 'a JSON body needs a message';
  return null;
}
