// Registries are values: what one set of policy modules adds travels with the run that loaded it.
// Two modules registering the same names with different behaviour run side by side in one process,
// each comparison seeing its own; the exploration pool's workers load the same modules; and what a
// command loaded is gone for the next command.
import { describe, expect, it } from 'vitest';
import { checkCell, runComparison, singleCell, type Comparison } from '../../../sim/compare/compare.ts';
import type { MatrixCell } from '../../../sim/compare/matrix.ts';
import { combination } from '../../../models/policies.ts';
import { loadPolicies, registerPolicies } from '../../../sim/plugins/policy-module.ts';
import { registryProperty, type Registry } from '../../../sim/plugins/loaded.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';
import { call } from '../../../sim/core/workload.ts';
import { certify } from '../../../sim/search/certify.ts';
import { sequentialWorkloads } from '../../../sim/search/exhaustive/exhaustive.ts';
import { exploreInParallel } from '../../../sim/search/exhaustive/parallel.ts';
import { run } from '../cli/run.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const A = 'test/fixtures/policies/twin-a.ts';
const B = 'test/fixtures/policies/twin-b.ts';
const FAULTS = ['twin-fault', 'http-502'];

function cells(r: Registry): MatrixCell[] {
  const c = combination({ server: { reinit: 'twin' } }, r.additions);
  const one = singleCell(c, FAULTS);
  return [one, { ...one, index: 1, id: 'twin-2', name: 'twin 2', faults: ['twin-fault'] }];
}

/** A comparison under `r` whose cells yield to the event loop first, so that two of them interleave. */
function compareUnder(r: Registry): Promise<Comparison> {
  return runComparison(
    { cells: cells(r), kind: 'records', cut: { server: {}, client: {} }, size: 2 },
    runConfig({ registry: r, seed: 3, runs: 20 }),
    {
      runner: async (cell, config) => {
        await new Promise((resolve) => setImmediate(resolve));
        return checkCell(cell, config);
      },
    },
  );
}

const verdict = (c: Comparison, cell: number, property: string) => c.cells[cell]!.results.find((r) => r.property === property)?.verdict;
const details = (c: Comparison) =>
  new Set(c.findings.flatMap((f) => f.history.flatMap((e) => (e.kind === 'fault' && e.applied ? [e.detail] : []))));

describe('registries as values', () => {
  it('two comparisons with modules registering the same names, run concurrently, each give their own results', async () => {
    const [a, b] = await Promise.all([loadPolicies([A]), loadPolicies([B])]);
    const aloneA = await compareUnder(a);
    const aloneB = await compareUnder(b);
    const [withA, withB] = await Promise.all([compareUnder(a), compareUnder(b)]);
    expect(JSON.stringify(withA)).toBe(JSON.stringify(aloneA));
    expect(JSON.stringify(withB)).toBe(JSON.stringify(aloneB));
    // The same names, each module's behaviour: A's property holds where B's is violated, and each
    // comparison's histories carry only its own fault's detail.
    expect(aloneA.properties).toContain('twin-prop');
    expect(verdict(aloneA, 0, 'twin-prop')).toBe('holds');
    expect(verdict(aloneB, 0, 'twin-prop')).toBe('violated');
    expect(aloneA.cells[0]!.stats.faultsApplied['twin-fault']).toBeGreaterThan(0);
    expect(details(aloneB)).toContain('twin B answered 502');
    expect([...details(aloneB)].some((d) => d.startsWith('twin A'))).toBe(false);
    expect([...details(aloneA)].some((d) => d.startsWith('twin B'))).toBe(false);
    expect(JSON.stringify(aloneA.cells)).not.toBe(JSON.stringify(aloneB.cells));
  });

  it("explores a module's property and fault on two worker threads with the one-thread result", async () => {
    const b = await loadPolicies([B]);
    const options = { faults: FAULTS, depth: 2, workloads: sequentialWorkloads(1, 'any') };
    const config = runConfig({ registry: b, properties: [registryProperty(b, 'twin-fold')!, registryProperty(b, 'twin-prop')!] });
    const c = combination({ server: { reinit: 'twin' } }, b.additions);
    const threads: number[] = [];
    const one = await exploreInParallel(c, options, config, { workers: 1, onThreads: (n) => threads.push(n) });
    const two = await exploreInParallel(c, options, config, { workers: 2, onThreads: (n) => threads.push(n) });
    expect(threads).toEqual([0, 2]);
    expect(two).toEqual(one);
    const fold = one.results.find((r) => r.property === 'twin-fold')!;
    expect(fold.verdict).toBe('violated');
    expect(one.results.find((r) => r.property === 'twin-prop')!.verdict).toBe('violated');
  });

  it('explore --workers 2 --policies gives the --workers 1 result', async () => {
    const argv = ['explore', '--policies', B, '--server', 'reinit=twin', '--faults', 'twin-fault,http-502', '--depth', '2', '--calls', '1'];
    const one = await run(...argv, '--workers', '1', '--property', 'twin-fold', '--json');
    const two = await run(...argv, '--workers', '2', '--property', 'twin-fold', '--json');
    expect([one.stderr, two.stderr]).toEqual(['', '']);
    expect(two.stdout).toBe(one.stdout);
    expect(JSON.parse(one.stdout).results[0]).toMatchObject({ property: 'twin-fold', verdict: 'violated' });
  });

  it('a minimality certificate is never shared between registries by a property name', async () => {
    // Registered from objects in this process: registries that no module path tells apart.
    const a = registerPolicies((await import('../../fixtures/policies/twin-a.ts')).default, 'twin');
    const b = registerPolicies((await import('../../fixtures/policies/twin-b.ts')).default, 'twin');
    const ce = {
      faults: [
        { fault: 'twin-fault', at: 2 },
        { fault: 'http-502', at: 4 },
      ],
      workload: [call(), call()],
      schedule: [],
    };
    const underA = certify(combination({}, NO_ADDITIONS), registryProperty(a, 'twin-prop')!, ce, FAULTS, runConfig({ registry: a }).world);
    const underB = certify(combination({}, NO_ADDITIONS), registryProperty(b, 'twin-prop')!, ce, FAULTS, runConfig({ registry: b }).world);
    expect(underA).toEqual({ minimal: true, shorter: null });
    expect(underB.minimal).toBe(false);
  });

  it('a module loaded for one command does not leak into the next', async () => {
    const first = await run('check', '--policies', A, '--server', 'reinit=twin', '--faults', 'twin-fault', '--runs', '5', '--json');
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout).stats.faultsApplied['twin-fault']).toBeGreaterThan(0);
    const reinit = await run('check', '--server', 'reinit=twin', '--runs', '5');
    expect([reinit.code, reinit.stderr]).toEqual([2, expect.stringContaining("'twin'")]);
    const fault = await run('check', '--faults', 'twin-fault', '--runs', '5');
    expect([fault.code, fault.stderr]).toEqual([2, expect.stringContaining("unknown fault 'twin-fault'")]);
    const list = await run('list', '--json');
    expect(list.stdout).not.toContain('twin');
  });
});
