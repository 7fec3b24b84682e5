// The fault vocabulary of docs/design.md and the point at which each fault fires. A fault fires at a
// point named by the run's own events: the n-th request the network carries (`at`), or just before
// it (`before`): never by wall-clock time. A policy module may add faults (additions.ts); they act
// `at` a request, through the network's rule loop.
import type { PolicyAdditions } from './additions.ts';

export const STRIPPABLE_HEADERS = ['transfer-encoding', 'accept', 'mcp-session-id', 'last-event-id', 'mcp-protocol-version'] as const;
/** Delays the arbitraries draw: one that reorders responses, one past the client's deadline. */
export const DEFAULT_DELAYS_MS = [1000, 40000] as const;

/** What the project knows of one built-in fault family. */
interface FaultSpec {
  /** `before`: acts just before request n is carried; `at`: acts on request n or its response. */
  readonly when: 'before' | 'at';
  /** What it acts on: the client's state, the server's, or the network between them (the lane the
   *  history and sequence diagrams draw it in). */
  readonly acts: 'client' | 'server' | 'network';
  readonly effect: string;
  /** A family taking a parameter (`strip-header:<name>`, `delay:<ms>`): what the parameter is. */
  readonly param?: 'header' | 'ms';
  /** The concrete names the arbitraries draw for this family (default: just its name). */
  readonly instances?: readonly string[];
}

/**
 * The built-in faults, each written once: the kinds, the names a plan may hold, the families `list`
 * prints and the arbitraries draw from, and where each acts are all derived from this table. What
 * each does is its rule (fault-rules.ts, keyed by these kinds).
 */
export const FAULTS = {
  'http-502': {
    when: 'at',
    acts: 'network',
    effect: 'the load balancer answers one request with 502 (before it reaches the server)',
  },
  'config-reset': {
    when: 'before',
    acts: 'client',
    effect: "the client's mutable config returns to defaults (streaming: false, default transport)",
  },
  'strip-header': {
    when: 'at',
    acts: 'network',
    effect: 'the proxy removes a header from one request (transfer-encoding on an initialize POST forces the SSE fallback)',
    param: 'header',
    instances: STRIPPABLE_HEADERS.map((h) => `strip-header:${h}` as const),
  },
  'stream-cut': { when: 'at', acts: 'network', effect: 'an SSE response stream ends before its final event' },
  'session-expire': {
    when: 'before',
    acts: 'server',
    effect: 'the server forgets one session (later requests on it get 404)',
  },
  'server-restart': { when: 'before', acts: 'server', effect: 'the server forgets every session' },
  delay: {
    when: 'at',
    acts: 'network',
    effect: 'a response is held back in virtual time (past a deadline it becomes a timeout)',
    param: 'ms',
    instances: DEFAULT_DELAYS_MS.map((ms) => `delay:${ms}` as const),
  },
  'response-lost': {
    when: 'at',
    acts: 'network',
    effect: 'the server runs the request; the load balancer replaces its answer with 502 (the lost acknowledgement)',
  },
  'connection-reset': {
    when: 'at',
    acts: 'network',
    effect: 'the connection closes on both sides mid-response (under 2026-07-28 the server treats the close as cancellation)',
  },
} as const satisfies Record<string, FaultSpec>;

type Builtin = typeof FAULTS;
export type BuiltinFaultKind = keyof Builtin;
/** A fault's name in a plan: a family's name, or `family:parameter` for those taking one. */
type NameOf<K extends BuiltinFaultKind> = Builtin[K] extends { param: 'ms' }
  ? `${K}:${number}`
  : Builtin[K] extends { param: string }
    ? `${K}:${string}`
    : K;

export type FaultName =
  | { [K in BuiltinFaultKind]: NameOf<K> }[BuiltinFaultKind]
  /** A fault a policy module registered. */
  | (string & {});

export type FaultKind = BuiltinFaultKind | (string & {});

export interface FaultFamily {
  kind: FaultKind;
  when: FaultSpec['when'];
  effect: string;
  /** The concrete names the arbitraries draw for this family. */
  instances: readonly FaultName[];
}

export const FAULT_FAMILIES: readonly FaultFamily[] = Object.entries(FAULTS).map(([kind, f]: [string, FaultSpec]) => ({
  kind,
  when: f.when,
  effect: f.effect,
  instances: f.instances ?? [kind],
}));

/** Where a fault acts: a built-in's lane from the table; a registered fault acts on the network. */
export function faultActs(name: FaultName): FaultSpec['acts'] {
  const kind = faultKind(name);
  return Object.hasOwn(FAULTS, kind) ? FAULTS[kind as BuiltinFaultKind].acts : 'network';
}

/** Every concrete fault the arbitraries draw by default, simplest first (fast-check shrinks toward the front). */
export const FAULT_VOCABULARY: readonly FaultName[] = FAULT_FAMILIES.flatMap((f) => f.instances);

export function faultKind(name: FaultName): FaultKind {
  const i = name.indexOf(':');
  return (i < 0 ? name : name.slice(0, i)) as FaultKind;
}

/** The built-in families, then the ones policy modules registered. */
export function allFaultFamilies(additions: PolicyAdditions): FaultFamily[] {
  const added = additions.faults
    .all()
    .map((d): FaultFamily => ({ kind: d.name, when: 'at', effect: d.describe, instances: d.instances ?? [d.name] }));
  return [...FAULT_FAMILIES, ...added];
}

/** Every concrete fault the arbitraries draw when no alphabet is given, registered ones included. */
export function faultVocabulary(additions: PolicyAdditions): FaultName[] {
  return allFaultFamilies(additions).flatMap((f) => f.instances);
}

export function faultFamily(name: FaultName, additions: PolicyAdditions): FaultFamily {
  const kind = faultKind(name);
  const family = FAULT_FAMILIES.find((f) => f.kind === kind) ?? allFaultFamilies(additions).find((f) => f.kind === kind);
  if (!family) throw new Error(`unknown fault '${name}'`);
  return family;
}

/** The built-in kinds that fire before their request, as a set: plans sort by `firesBefore`, which
 *  every drawn plan asks of each of its faults several times. */
const BEFORE_KINDS: ReadonlySet<string> = new Set(FAULT_FAMILIES.filter((f) => f.when === 'before').map((f) => f.kind));

/** A registered fault always acts `at` its request, so this needs no additions (plans sort by it). */
export function firesBefore(name: FaultName): boolean {
  return BEFORE_KINDS.has(faultKind(name));
}

export function strippedHeader(name: FaultName): string | undefined {
  return name.startsWith('strip-header:') ? name.slice('strip-header:'.length) : undefined;
}

export function delayMs(name: FaultName): number | undefined {
  return name.startsWith('delay:') ? Number(name.slice('delay:'.length)) : undefined;
}

/**
 * Expand one `--faults` item into concrete fault names: a family (`strip-header`, `delay`) becomes
 * its default instances; `strip-header:<name>` and `delay:<ms>` are taken as given. Returns an
 * error message (one line, naming the valid choices) for anything else.
 */
export function expandFault(item: string, additions: PolicyAdditions): FaultName[] | string {
  const families = allFaultFamilies(additions);
  const family = families.find((f) => f.kind === item);
  if (family) return [...family.instances];
  if (families.some((f) => f.instances.includes(item))) return [item];
  const kind = faultKind(item);
  const param = Object.hasOwn(FAULTS, kind) ? (FAULTS[kind as BuiltinFaultKind] as FaultSpec).param : undefined;
  if (param) {
    const given = PARAMS[param](item.slice(kind.length + 1));
    return typeof given === 'string' ? [`${kind}:${given}`] : `${given.bad} in fault '${item}' (${given.use})`;
  }
  const valid = families.map((f) => (f.instances.length > 1 ? `${f.kind}[:…]` : f.kind)).join(', ');
  return `unknown fault '${item}' (valid: ${valid})`;
}

/** A family's parameter as `--faults` takes it: the canonical text, or what is wrong with it. */
const PARAMS: Record<NonNullable<FaultSpec['param']>, (text: string) => string | { bad: string; use: string }> = {
  header: (h) => (/^[a-z0-9-]+$/.test(h) ? h : { bad: 'bad header name', use: 'use a lower-case header name' }),
  ms: (ms) => (/^[0-9]+$/.test(ms) && Number(ms) > 0 ? String(Number(ms)) : { bad: 'bad delay', use: 'use delay:<positive milliseconds>' }),
};
