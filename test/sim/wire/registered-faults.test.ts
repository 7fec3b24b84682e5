// A fault a policy module registers acts on the wire as it does in the model: it fires, writes its
// `fault` entry with the same detail, and changes what the calls see. (On main before the one fault
// mechanism, the msw fault network had no branch for registered faults: they never fired there.)
import { describe, expect, it } from 'vitest';
import type { History } from '../../../sim/core/history.ts';
import { call } from '../../../sim/core/workload.ts';
import type { HttpResponse } from '../../../models/messages.ts';
import { combination, type Combination } from '../../../models/policies.ts';
import { loadPolicies, registerPolicies } from '../../../sim/plugins/policy-module.ts';
import { draftRegistry } from '../../../sim/plugins/loaded.ts';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import { runWire } from '../../../sim/wire/world.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { run } from '../cli/run.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const faultEntries = (h: History) =>
  h.entries.flatMap((e) => (e.kind === 'fault' ? [{ fault: e.fault, at: e.at, applied: e.applied, detail: e.detail }] : []));
const MODEL_BOTH_SIDES = (c: Combination) => ({
  client: { kind: 'model' as const, policy: c.client },
  server: { kind: 'model' as const, policy: c.server },
});

describe('a registered fault under check --wire', () => {
  it('fires, is applied, and makes calls fail loudly (model client × model server through msw)', async () => {
    const policies = ['--policies', 'test/fixtures/policies/everything.ts'];
    const r = await run('check', '--wire', ...policies, '--faults', 'http-503', '--runs', '5', '--json');
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.stats.faultsFired['http-503']).toBeGreaterThan(0);
    expect(out.stats.faultsApplied['http-503']).toBeGreaterThan(0);
    expect(out.results[0].outcomes.error).toBeGreaterThan(0);
  });
});

describe('registered faults on both tiers', () => {
  it('a request fault and a response fault write the same entries and give the same outcomes in the model and on the wire', async () => {
    const registry = draftRegistry();
    await loadPolicies(['test/fixtures/policies/everything.ts'], registry);
    registerPolicies(
      {
        faults: {
          'slow-body': {
            describe: 'the proxy holds back a response past the deadline, naming its body',
            response: ({ response }: { response: HttpResponse }) => ({
              applied: true,
              detail: `held a ${response.status} ${response.body.kind} body`,
              delayMs: 40_000,
            }),
          },
        },
      },
      'inline',
      registry,
    );
    const { additions } = registry;
    const c = combination({}, NO_ADDITIONS);
    const workload = [call(), call(true), call()];
    const plan = [
      { fault: 'http-503', at: 2 },
      { fault: 'slow-body', at: 5 },
    ];
    const reference = referenceOf(runWorld({ combination: c, workload, plan: [] }, { ...DEFAULT_WORLD, additions }));
    const model = runWorld({ combination: c, workload, plan }, { ...DEFAULT_WORLD, additions });
    const wire = await runWire(MODEL_BOTH_SIDES(c), { workload, plan }, { additions });
    expect(faultEntries(model)).toEqual([
      { fault: 'http-503', at: 2, applied: true, detail: '503 for tools/call' },
      { fault: 'slow-body', at: 5, applied: true, detail: expect.stringMatching(/^held a 200 (json|sse) body$/) },
    ]);
    expect(faultEntries(wire)).toEqual(faultEntries(model));
    expect(callOutcomes(wire, reference)).toEqual(callOutcomes(model, reference));
    expect(callOutcomes(model, reference).map((o) => o.outcome)).toContain('error');
  });
});
