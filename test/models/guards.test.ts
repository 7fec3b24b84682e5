// The records' Python, ported: these tests pin the same decisions the Python makes.
import { describe, expect, it } from 'vitest';
import { capSet } from '../../models/capabilities.ts';
import {
  admitCapability,
  CapabilityRenegotiationError,
  contentTypeMatches,
  guardToolCall,
  TransportCapabilityMismatch,
  unadmitted,
  validateReinitialize,
} from '../../models/guards.ts';

const streaming = capSet(['tools', 'tools.streaming']);
const plain = capSet(['tools']);

describe('validateReinitialize (record 000)', () => {
  it('refuses a re-initialize without a session id', () => {
    expect(() => validateReinitialize(null, streaming, streaming)).toThrow(CapabilityRenegotiationError);
    expect(() => validateReinitialize('', streaming, streaming)).toThrow(/without a session identifier/);
  });
  it('refuses to lose tools.streaming', () => {
    expect(() => validateReinitialize('s1', streaming, plain)).toThrow(/would lose tools.streaming/);
  });
  it('refuses to gain tools.streaming mid-session', () => {
    expect(() => validateReinitialize('s1', plain, streaming)).toThrow(/would gain tools.streaming/);
  });
  it('returns the prior set when streaming is unchanged (pin to first handshake)', () => {
    const incoming = capSet(['tools', 'tools.streaming', 'resources']);
    expect(validateReinitialize('s1', streaming, incoming)).toBe(streaming);
  });
  it('returns the incoming set when narrowing is allowed', () => {
    expect(validateReinitialize('s1', streaming, plain, { allowNarrowing: true })).toBe(plain);
  });
});

describe('admitCapability / guardToolCall (record 003)', () => {
  it('admits anything when the negotiated transport is the preferred one', () => {
    expect(() => admitCapability('streaming-progress', 'streamable-http', 'streamable-http', [])).not.toThrow();
  });
  it('admits transport-agnostic capabilities after a fallback', () => {
    expect(() => admitCapability('tools', 'sse', 'streamable-http', [])).not.toThrow();
  });
  it('refuses a transport-dependent capability after a fallback until it is probed', () => {
    expect(() => admitCapability('streaming-progress', 'sse', 'streamable-http', [])).toThrow(TransportCapabilityMismatch);
    expect(() => admitCapability('streaming-progress', 'sse', 'streamable-http', ['streaming-progress'])).not.toThrow();
  });
  it('guards every capability a call uses', () => {
    expect(() => guardToolCall(['tools', 'resource-subscriptions'], 'sse', 'streamable-http', [])).toThrow(/resource-subscriptions/);
    expect(unadmitted(['tools', 'streaming-progress', 'multipart-results'], 'sse', 'streamable-http', ['multipart-results'])).toEqual([
      'streaming-progress',
    ]);
  });
});

describe('contentTypeMatches (record 000 detector 1)', () => {
  it('matches the Content-Type to the negotiated mode', () => {
    expect(contentTypeMatches('text/event-stream', true)).toBe(true);
    expect(contentTypeMatches('application/json', true)).toBe(false);
    expect(contentTypeMatches('application/json', false)).toBe(true);
    expect(contentTypeMatches(undefined, false)).toBe(false);
  });
});
