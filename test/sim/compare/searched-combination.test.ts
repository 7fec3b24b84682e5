// The combination a mitigation search runs (compare/mitigations.ts `searchedCombination`) is judged
// as the changed one would be, run by run. Without an idempotent call among the draws,
// `client.reissue=idempotent-only` re-sends nothing, as `never` does: the two histories differ only
// in an error's reason ("not re-issued: client.reissue=…"), and the finder's verdicts (outcomes,
// recovers) and the silent runs' mechanisms are the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { causeOf } from '../../../sim/compare/causes.ts';
import type { Finding } from '../../../sim/compare/findings.ts';
import { searchedCombination } from '../../../sim/compare/mitigation-runs.ts';
import { combination } from '../../../models/policies.ts';
import { judge } from '../../../properties/judge.ts';
import { referenceOf } from '../../../properties/outcomes.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { anyCombination } from '../../fixtures/combinations.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const recovers = PROPERTIES.filter((p) => p.name === 'recovers');

const idempotentOnly = anyCombination.map((c) =>
  combination({ server: c.server, client: { ...c.client, reissue: 'idempotent-only' } }, NO_ADDITIONS),
);

/** What the finder reads of a run: each call's outcome, recovery, and how a silent run went silent. */
function read(c: ReturnType<typeof combination>, plan: Finding['plan'], workload: Finding['workload'], schedule: number[]) {
  const history = runWorld({ combination: c, plan, workload, schedule }, DEFAULT_WORLD);
  const reference = referenceOf(runWorld({ combination: c, plan: [], workload, schedule: [] }, DEFAULT_WORLD));
  const j = judge(history, reference, recovers);
  const outcomes = j.outcomes.map((o) => ({ callId: o.callId, outcome: o.outcome }));
  const silent = outcomes.some((o) => o.outcome === 'silent-empty' || o.outcome === 'silent-hang');
  const finding = { kind: 'violation', outcomes, history: history.entries, plan, properties: [] } as unknown as Finding;
  return { history, verdict: { outcomes, recovers: j.verdicts.recovers!.holds, mechanism: silent ? causeOf(finding).mechanism : null } };
}

describe('searchedCombination', () => {
  it('runs reissue=idempotent-only as never where no call is idempotent, and every run reads the same', () => {
    let notReissued = 0;
    let silent = 0;
    fc.assert(
      fc.property(idempotentOnly, inputs({ workload: { overlap: true, lists: true } }), (c, [plan, workload, schedule]) => {
        const searched = searchedCombination(c, { workload: { overlap: true, lists: true } });
        expect(searched.client.reissue).toBe('never');
        const a = read(c, plan, workload, schedule);
        const b = read(searched, plan, workload, schedule);
        expect(b.verdict).toEqual(a.verdict);
        const said = JSON.stringify(a.history.entries);
        if (said.includes('client.reissue=idempotent-only')) notReissued++;
        if (a.verdict.mechanism) silent++;
        expect(JSON.stringify(b.history.entries)).toBe(said.replaceAll('client.reissue=idempotent-only', 'client.reissue=never'));
      }),
      { numRuns: 600, seed: 11 },
    );
    // Reached: calls that failed once and were not re-sent, and silent runs with a mechanism.
    expect(notReissued).toBeGreaterThan(30);
    expect(silent).toBeGreaterThan(10);
  });

  it('keeps idempotent-only where the draws have idempotent calls, and the 2026-07-28 knobs at their defaults', () => {
    const c = combination({ client: { reissue: 'idempotent-only' } }, NO_ADDITIONS);
    expect(searchedCombination(c, { workload: { idempotent: true } })).toEqual(c);
    const modern = combination(
      { server: { protocol: '2026-07-28', reinit: 'pin-first' }, client: { reconnect: 'new-session' } },
      NO_ADDITIONS,
    );
    expect(searchedCombination(modern, {})).toEqual(combination({ server: { protocol: '2026-07-28' } }, NO_ADDITIONS));
  });
});
