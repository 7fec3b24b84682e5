// `explore` and `check --depth` as users drive them: verdicts with states and plans, the same JSON
// on one core or two, minimality beside each counterexample, one-line errors on bad input.
import { describe, expect, it } from 'vitest';
import { itRejects, run } from './run.ts';

const SEED_000 = ['--faults', 'http-502,config-reset'];

describe('explore', () => {
  it('--json: the record-000 failure with its shortest plan, other properties holding to the depth', async () => {
    const r = await run('explore', ...SEED_000, '--depth', '2', '--json');
    expect(r.code).toBe(1);
    const e = JSON.parse(r.stdout);
    expect(e.complete).toBe(true);
    expect(e.workloads).toHaveLength(6);
    const empty = e.results.find((x: { property: string }) => x.property === 'no-silent-empty');
    expect(empty.verdict).toBe('violated');
    expect(empty.shortest.faults).toEqual([
      { fault: 'config-reset', at: 0 },
      { fault: 'http-502', at: 2 },
    ]);
    expect(empty.shortest.why).toMatch(/well-formed result/);
    const hang = e.results.find((x: { property: string }) => x.property === 'no-silent-hang');
    expect(hang).toMatchObject({ verdict: 'holds', depth: 2, shortest: null });
    expect(hang.states).toBeGreaterThan(50);
    expect(hang.plans).toBeGreaterThan(hang.states);
    expect(e.coverage.map((m: { machine: string }) => m.machine)).toEqual(['client', 'server']);
  });

  it("says in its verdict lines when its workloads are shorter than check's, and not when they are as long", async () => {
    const short = await run('explore', ...SEED_000, '--depth', '1', '--quiet');
    expect(short.stdout).toMatch(/^no-silent-hang +holds \(≤2 calls\)/m);
    expect(short.stdout).toMatch(
      /^no-silent-hang: holds up to depth 1 \([\d,]+ distinct states, [\d,]+ plans\), only on workloads of up to 2 calls \(check draws up to 5 calls and 8 faults, and may find what this does not\)$/m,
    );
    const long = await run('explore', '--faults', 'http-502', '--depth', '1', '--calls', '5', '--progress', 'never', '--quiet');
    expect(long.stdout).toMatch(/^no-silent-hang: holds up to depth 1 \([\d,]+ distinct states, [\d,]+ plans\)$/m);
    expect(long.stdout).not.toMatch(/check draws|≤\d calls/);
  });

  it('prints the same report on one worker as on two', async () => {
    const one = await run(
      'explore',
      '--client',
      'parser=adaptive',
      '--faults',
      'strip-header:transfer-encoding,http-502',
      '--depth',
      '2',
      '--workers',
      '1',
      '--json',
    );
    const two = await run(
      'explore',
      '--client',
      'parser=adaptive',
      '--faults',
      'strip-header:transfer-encoding,http-502',
      '--depth',
      '2',
      '--workers',
      '2',
      '--json',
    );
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  });

  it('the table says holds up to the depth, with states and plans, and lists unreached transitions', async () => {
    const r = await run(
      'explore',
      '--server',
      'reinit=pin-first',
      ...SEED_000,
      '--property',
      'no-silent-empty',
      '--depth',
      '2',
      '--quiet',
      '--coverage',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no-silent-empty: holds up to depth 2 \([0-9,]+ distinct states, [0-9,]+ plans\)/);
    expect(r.stdout).toMatch(/client never took +dead: CALL/);
  });

  const bad: [string, string[], RegExp][] = [
    ['negative depth', ['explore', '--depth', '-1'], /--depth must be a whole number from 1 to 12/],
    // Depth 0 explores the fault-free run only, where every property holds: refused, not 'holds'.
    ['depth 0', ['explore', '--depth', '0'], /--depth must be a whole number from 1 to 12, not '0'/],
    ['bad progress', ['explore', '--progress', 'sometimes'], /--progress must be any, always or never/],
    ['no workers', ['explore', '--workers', '0'], /--workers must be a whole number from 1/],
    ['unknown fault', ['explore', '--faults', 'meteor'], /unknown fault 'meteor'/],
    ['check: bad depth', ['check', '--depth', 'deep'], /--depth must be a whole number/],
  ];
  itRejects(bad);

  it('has --help', async () => {
    const r = await run('explore', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: mcp-faultsim explore/);
    expect(r.stdout).toContain('--depth K');
  });
});

describe('check --depth', () => {
  it('adds each property its exhaustive block, and marks each counterexample minimal or not', async () => {
    const r = await run('check', ...SEED_000, '--depth', '2', '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    for (const p of out.results) {
      expect(Object.keys(p.exhaustive)).toEqual(['depth', 'states', 'plans', 'verdict', 'reached', 'shortest']);
      if (p.counterexample) expect(typeof p.minimal).toBe('boolean');
    }
    const empty = out.results.find((x: { property: string }) => x.property === 'no-silent-empty');
    expect(empty.minimal).toBe(true);
    expect(empty.exhaustive.shortest.faults).toHaveLength(empty.counterexample.faults.length);
    expect(out.exploration.depth).toBe(2);
  });

  it('without --depth still certifies every counterexample', async () => {
    const r = await run('check', ...SEED_000, '--property', 'no-silent-empty', '--quiet');
    expect(r.stdout).toContain('minimal   yes: no plan with fewer faults violates it on this workload');
  });
});
