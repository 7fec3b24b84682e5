// A knob a policy module declares means something: every hook of the module reads the combination's
// value of it (server hooks the server's knobs, client hooks the client's, a fault both, a property
// the history's combination), and the knob's values run differently. Without such a knob nothing
// changes: combinations hold the built-in knobs only. Bad declarations are refused in one line.
import { describe, expect, it } from 'vitest';
import { combination, DEFAULT_CLIENT, DEFAULT_SERVER, type Combination } from '../../../models/policies.ts';
import { PolicyLoadError, registerPolicies } from '../../../sim/plugins/policy-module.ts';
import { checkHistory } from '../../../properties/fold.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { propertyByName } from '../../../properties/properties.ts';
import { call } from '../../../sim/core/workload.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const seen: Record<string, unknown>[] = [];
const knob = (values: string[], byDefault: string) => ({
  values,
  default: byDefault,
  meaning: 'a test knob',
  describe: Object.fromEntries(values.map((v) => [v, `value ${v}`])),
});

const registry = registerPolicies(
  {
    server: {
      knobs: { mode: knob(['pin', 'drop'], 'pin') },
      reinit: {
        'by-mode': {
          describe: 'adopt the new set, or refuse, by server.mode',
          decide: ({ clientCaps, knobs }: { clientCaps: string[]; knobs: Record<string, string> }) =>
            knobs['server.mode'] === 'drop' ? { kind: 'reject' } : { kind: 'adopt', caps: clientCaps },
        },
      },
    },
    client: {
      knobs: { strict: knob(['no', 'yes'], 'no') },
      reconnect: {
        'by-strict': {
          describe: 'replay, or a new session where client.strict=yes',
          afterFailure: ({ knobs }: { knobs: Record<string, string> }) => (knobs['client.strict'] === 'yes' ? 'new-session' : 'replay'),
          handshake: ({ config, cached, knobs }: { config: { transport: string }; cached: unknown; knobs: object }) => {
            seen.push({ ...knobs });
            return cached ?? { capabilities: ['tools', 'tools.streaming'], transport: config.transport };
          },
        },
      },
      guards: {
        'strict-sse': {
          describe: 'refuse SSE answers where client.strict=yes',
          checkResponse: ({ contentType, knobs }: { contentType: string; knobs: Record<string, string> }) =>
            knobs['client.strict'] === 'yes' && contentType === 'text/event-stream' ? 'strict: no SSE' : null,
        },
      },
    },
    properties: {
      'mode-is-pin': {
        holdsWhen: 'the server runs with server.mode=pin',
        family: 'invariant',
        init: (_reference: unknown, frame: { combination: Combination }) => (frame.combination.server as unknown as { mode: string }).mode,
        step: (s: string) => s,
        verdict: (s: string) => (s === 'pin' ? { holds: true, reached: true } : { holds: false, reached: true, why: `mode ${s}` }),
        key: (s: string) => s,
      },
    },
  },
  'module-knobs.test',
);
const additions = registry.additions;
const world = runConfig({ registry }).world;

function runUnder(server: Record<string, string>, client: Record<string, unknown>) {
  const c = combination({ server, client } as Parameters<typeof combination>[0], additions);
  const input = { combination: c, workload: [call(), call()], plan: [{ fault: 'http-502' as const, at: 2 }] };
  const history = runWorld(input, world);
  const reference = runWorld({ ...input, plan: [] }, world);
  return { c, history, reference, notes: history.entries.flatMap((e) => ('note' in e ? [String(e.note)] : [])) };
}

describe("a module's own knobs", () => {
  it('are part of every combination made under the module, at their defaults unless set, after the built-in knobs', () => {
    const c = combination({}, additions);
    expect(c.server).toEqual({ ...DEFAULT_SERVER, mode: 'pin' });
    expect(Object.keys(c.client)).toEqual([...Object.keys(DEFAULT_CLIENT), 'strict']);
    expect(combination({}, NO_ADDITIONS)).toEqual({ server: DEFAULT_SERVER, client: DEFAULT_CLIENT });
  });

  it("are read by the server's reinit policy: the same replay is adopted or refused by server.mode", () => {
    const pin = runUnder({ reinit: 'by-mode', mode: 'pin' }, { reconnect: 'by-strict' });
    const drop = runUnder({ reinit: 'by-mode', mode: 'drop' }, { reconnect: 'by-strict' });
    expect(pin.notes).toContain('reinitialized');
    expect(pin.notes).not.toContain('reinit-rejected');
    expect(drop.notes).toContain('reinit-rejected');
  });

  it("are read by the client's reconnect strategy, handshake and guard, which see the client's knobs only", () => {
    seen.length = 0;
    const loose = runUnder({ reinit: 'by-mode' }, { reconnect: 'by-strict', guards: ['strict-sse'], strict: 'no' });
    expect(seen).toContainEqual({ 'client.strict': 'no' });
    const strict = runUnder({ reinit: 'by-mode' }, { reconnect: 'by-strict', guards: ['strict-sse'], strict: 'yes' });
    expect(seen).toContainEqual({ 'client.strict': 'yes' });
    expect(JSON.stringify(loose.history)).not.toContain('strict: no SSE');
    expect(JSON.stringify(strict.history)).toContain('strict: no SSE');
    // After the 502, `yes` opens a new session where `no` replays on the same one.
    const reconnects = (h: typeof loose) => h.history.entries.filter((e) => e.kind === 'client' && e.note === 'reconnect');
    expect(reconnects(loose).map((e) => (e as { handshake?: string }).handshake)).toContain('replay');
    expect(reconnects(strict).map((e) => (e as { handshake?: string }).handshake)).toContain('new-session');
  });

  it("are read by a property from the history's combination", () => {
    const mode = propertyByName('mode-is-pin', registry.properties)!;
    for (const [value, holds] of [
      ['pin', true],
      ['drop', false],
    ] as const) {
      const r = runUnder({ mode: value }, {});
      expect(checkHistory(mode, r.history, referenceOf(r.reference)).holds).toBe(holds);
    }
  });

  it('are refused in one line when they clash with a knob or say too little', () => {
    const bad = (server: unknown) => () => registerPolicies({ server: { knobs: server } }, 'bad.ts');
    expect(bad({ reinit: knob(['a'], 'a') })).toThrow(
      new PolicyLoadError("--policies bad.ts: server knob 'reinit' already exists (built in or registered by another module)"),
    );
    expect(bad({ x: knob(['a', 'b'], 'c') })).toThrow(
      /^--policies bad.ts: server\.knobs\.x\.default should be one of its values \(a, b\)$/,
    );
    expect(bad({ x: { ...knob(['a', 'b'], 'a'), describe: { a: 'A' } } })).toThrow(
      /server\.knobs\.x\.describe\.b should say what the value does/,
    );
    expect(bad({ x: knob(['a|b'], 'a|b') })).toThrow(/server\.knobs\.x\.values\[0\] use lower-case letters, digits, '\.' and '-'/);
  });
});
