// Capability sets as the records describe them. `tools.streaming` (seed 000) and
// `streaming-progress` (seed 003) are not in any MCP schema revision: they are server-build
// extensions the records assume, modelled here as flat names so that sets intersect and compare.

export type Capability = 'tools' | 'resources' | 'tools.streaming' | 'streaming-progress';
export type Transport = 'streamable-http' | 'sse';
export type ProgressEncoding = 'inline' | 'frames';

/** A capability set: sorted, no duplicates, so equal sets serialize equally. */
export type CapabilitySet = readonly Capability[];

const ORDER: readonly Capability[] = ['resources', 'streaming-progress', 'tools', 'tools.streaming'];

export function capSet(caps: Iterable<Capability>): CapabilitySet {
  const have = new Set(caps);
  return ORDER.filter((c) => have.has(c));
}

export const SERVER_CAPABILITIES: CapabilitySet = capSet(['tools', 'resources', 'tools.streaming', 'streaming-progress']);

export function has(set: CapabilitySet, cap: Capability): boolean {
  return set.includes(cap);
}

export function intersect(a: CapabilitySet, b: CapabilitySet): CapabilitySet {
  return a.filter((c) => b.includes(c));
}

export function sameSet(a: CapabilitySet, b: CapabilitySet): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** Capabilities whose wire encoding depends on the transport (seed 003's TRANSPORT_DEPENDENT). */
export const TRANSPORT_DEPENDENT: ReadonlySet<string> = new Set(['streaming-progress', 'resource-subscriptions', 'multipart-results']);

/** How this server build encodes progress on each transport (seed 003): inline result fields on
 *  Streamable HTTP, separate `event: progress` frames after a fallback to HTTP+SSE. */
export function progressEncoding(transport: Transport): ProgressEncoding {
  return transport === 'sse' ? 'frames' : 'inline';
}

/** `streaming-progress` means inline progress: expressible on Streamable HTTP only. */
export function expressible(cap: Capability, transport: Transport): boolean {
  return cap !== 'streaming-progress' || transport === 'streamable-http';
}
