// The model ↔ wire differential for the SDK v2 server, 2025-11-25 revision: a model client against
// the real `sdk2-*` server on the wire gives every call the outcome that client gets, in the
// deterministic world, against the model server set as the SDK behaves (reinit=reject; streaming
// negotiated for the JSON preset, accept-header for the SSE one). It holds where the model and the
// SDK agree; where they do not, the example tests below pin the difference. The 2026-07-28 model
// does not exist yet: its differential is pending.
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_KNOBS, combination, type ClientPolicy } from '../../../models/policies.ts';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import { faultPlan, workload } from '../../../sim/search/random/arbitraries.ts';
import type { FaultName } from '../../../models/faults.ts';
import { call, type Workload } from '../../../sim/core/workload.ts';
import type { FaultPlan } from '../../../sim/core/plan.ts';
import { runWire } from '../../../sim/wire/world.ts';
import { runWorld } from '../../../sim/world/world.ts';
import type { Sdk2ServerPreset } from '../../../sim/wire/peers/sdk2-server.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

/** Faults both sides take part in alike. Left out, each pinned below or in sdk2-under-faults: a
 *  stripped `accept` (the SDK: 406) or `mcp-session-id` (the SDK: 400), a stripped
 *  `transfer-encoding` (the model's HTTP+SSE move; the SDK has no such transport), `stream-cut`
 *  (the SDK's stream layout is its own). */
const AGREED: FaultName[] = [
  'http-502',
  'config-reset',
  'session-expire',
  'server-restart',
  'delay:1000',
  'delay:40000',
  'strip-header:last-event-id',
];

const SDK_LIKE = {
  'sdk2-json': { reinit: 'reject', streaming: 'negotiated' },
  'sdk2-sse': { reinit: 'reject', streaming: 'accept-header' },
} as const;

/** Runs whose outcomes were not all ok: the property is not vacuous only if some were. */
const reached = { 'sdk2-json': 0, 'sdk2-sse': 0 };

async function both(preset: Sdk2ServerPreset, client: ClientPolicy, w: Workload, plan: FaultPlan) {
  const c = combination({ server: SDK_LIKE[preset], client }, NO_ADDITIONS);
  const reference = referenceOf(runWorld({ combination: c, workload: w, plan: [] }, DEFAULT_WORLD));
  const model = callOutcomes(runWorld({ combination: c, workload: w, plan }, DEFAULT_WORLD), reference).map((o) => o.outcome);
  const setup = { client: { kind: 'model', policy: c.client }, server: { kind: 'sdk2', preset, protocol: '2025-11-25' } } as const;
  const wireReference = referenceOf(await runWire(setup, { workload: w, plan: [] }));
  const wire = callOutcomes(await runWire(setup, { workload: w, plan }), wireReference).map((o) => o.outcome);
  if (model.some((o) => o !== 'ok')) reached[preset]++;
  return { model, wire };
}

// A client that opens a new session after a failure: a replayed initialize meets the difference below.
const newSession = (parsers: readonly ClientPolicy['parser'][]) =>
  fc.constantFrom(...parsers).map((parser) => combination({ client: { reconnect: 'new-session', parser } }, NO_ADDITIONS).client);

describe('model world = model client × SDK v2 server on the wire (2025-11-25)', () => {
  test.prop([newSession(CLIENT_KNOBS.parser.values), faultPlan({ faults: AGREED }), workload({ overlap: false })], {
    numRuns: 40,
    seed: 7,
  })('sdk2-json: every call has the same outcome', async (client, plan, w) => {
    const { model, wire } = await both('sdk2-json', client, w, plan);
    expect(wire).toEqual(model);
  });

  // The pinned parser cannot read the SDK's SSE answers at all (it advertises no tools.streaming).
  test.prop([newSession(['adaptive']), faultPlan({ faults: AGREED }), workload({ overlap: false })], { numRuns: 40, seed: 7 })(
    'sdk2-sse, adaptive parser: every call has the same outcome',
    async (client, plan, w) => {
      const { model, wire } = await both('sdk2-sse', client, w, plan);
      expect(wire).toEqual(model);
    },
  );

  it('reached failures: some plans made calls fail, on both presets', () => {
    expect(reached['sdk2-json']).toBeGreaterThan(3);
    expect(reached['sdk2-sse']).toBeGreaterThan(3);
  });
});

describe('where the model and the SDK v2 server differ (2025-11-25)', () => {
  it('the SDK rejects a replayed initialize (400) but keeps serving the session; the model server calls it dead', async () => {
    const client = combination({ client: { reconnect: 'replay-cached', parser: 'adaptive' } }, NO_ADDITIONS).client;
    // A deadline makes the client replay its handshake on request 6, which both servers reject.
    const plan: FaultPlan = [
      { fault: 'server-restart', at: 1 },
      { fault: 'delay:40000', at: 5 },
    ];
    const { model, wire } = await both('sdk2-json', client, [call(), call(), call()], plan);
    expect(model).toEqual(['ok', 'error', 'error']);
    expect(wire).toEqual(['ok', 'error', 'ok']);
  });
});
