// Capability sets as the records describe them. `tools.streaming` (record 000) and
// `streaming-progress` (record 003) are not in any MCP schema revision: they are server-build
// extensions the records assume, modelled here as flat names so that sets intersect and compare.

export type Capability = 'tools' | 'resources' | 'tools.streaming' | 'streaming-progress';
export type Transport = 'streamable-http' | 'sse';
export type ProgressEncoding = 'inline' | 'frames';

/** A capability set: sorted, no duplicates, so equal sets serialize equally. */
export type CapabilitySet = readonly Capability[];

const ORDER: readonly Capability[] = ['resources', 'streaming-progress', 'tools', 'tools.streaming'];

/** Each of the sixteen sets, made once (indexed by a bit per capability in ORDER's order): runs make
 *  the same few sets over and over, and one object per set lets a reader keep its JSON (properties/caps-immutable.ts). They are
 *  shared, so never changed (the type is readonly); not frozen, because array builtins over frozen
 *  arrays take V8's slow path (a filter is 5-10× slower). */
const SETS: readonly CapabilitySet[] = Array.from({ length: 1 << ORDER.length }, (_, mask) => ORDER.filter((_c, i) => mask & (1 << i)));

/** A capability's bit (its place in ORDER); 0 for a name that is none of them. */
function bit(c: string): number {
  return c === 'resources' ? 1 : c === 'streaming-progress' ? 2 : c === 'tools' ? 4 : c === 'tools.streaming' ? 8 : 0;
}
if (!ORDER.every((c, i) => bit(c) === 1 << i)) throw new Error('internal: capability bits out of step with ORDER');

export function capSet(caps: Iterable<Capability>): CapabilitySet {
  let mask = 0;
  for (const c of caps) mask |= bit(c);
  return SETS[mask]!;
}

/** The bits of the capabilities a set holds (names outside ORDER have none). */
function maskOf(set: CapabilitySet): number {
  let mask = 0;
  for (let i = 0; i < set.length; i++) mask |= bit(set[i]!);
  return mask;
}

export const SERVER_CAPABILITIES: CapabilitySet = capSet(['tools', 'resources', 'tools.streaming', 'streaming-progress']);

export function has(set: CapabilitySet, cap: Capability): boolean {
  return set.includes(cap);
}

export function intersect(a: CapabilitySet, b: CapabilitySet): CapabilitySet {
  // Of one of the shared sets (the model's), the shared set of the capabilities both hold: what the
  // filter below gives, in the same order. (Array builtins over frozen arrays take a slow path.)
  const ma = maskOf(a);
  if (SETS[ma] === a) return SETS[ma & maskOf(b)]!;
  return a.filter((c) => b.includes(c));
}

export function sameSet(a: CapabilitySet, b: CapabilitySet): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Capabilities whose wire encoding depends on the transport (record 003's TRANSPORT_DEPENDENT). */
export const TRANSPORT_DEPENDENT: ReadonlySet<string> = new Set(['streaming-progress', 'resource-subscriptions', 'multipart-results']);

/** How this server build encodes progress on each transport (record 003): inline result fields on
 *  Streamable HTTP, separate `event: progress` frames after a fallback to HTTP+SSE. */
export function progressEncoding(transport: Transport): ProgressEncoding {
  return transport === 'sse' ? 'frames' : 'inline';
}

/** `streaming-progress` means inline progress: expressible on Streamable HTTP only. */
export function expressible(cap: Capability, transport: Transport): boolean {
  return cap !== 'streaming-progress' || transport === 'streamable-http';
}
