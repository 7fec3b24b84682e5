// Designers' policy modules: docs/library.md's walkthrough example through `compare`, one addition of
// each kind taking effect, and policies that throw, hang or break the step budget reported as
// `policy-error` findings while the rest of the matrix runs.
import { PROPERTIES } from '../../../properties/properties.ts';
import { describe, expect, it } from 'vitest';
import { combination } from '../../../models/policies.ts';
import { PolicyError } from '../../../models/additions.ts';
import { loadPolicies, registerPolicies } from '../../../sim/plugins/policy-module.ts';
import { call } from '../../../sim/core/workload.ts';
import { DEFAULT_WORLD, runWorld } from '../../../sim/world/world.ts';
import { run, tempDir } from './run.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const json = async (...argv: string[]) => {
  const r = await run(...argv, '--json', ...(argv[0] === 'compare' ? ['--out', tempDir('policies')] : []));
  expect(r.stderr).toBe('');
  return { code: r.code, out: JSON.parse(r.stdout) };
};
const verdicts = (cell: { results: { property: string; verdict: string }[] }) =>
  Object.fromEntries(cell.results.map((r) => [r.property, r.verdict]));

describe('the docs/library.md walkthrough: examples/streaming-floor.ts', () => {
  it('runs through compare beside the built-ins and fixes record 000 without a silent failure or an outage', async () => {
    const { code, out } = await json(
      'compare',
      '--policies',
      'examples/streaming-floor.ts',
      '--server',
      'reinit=honor-last|streaming-floor',
    );
    expect(code).toBe(0);
    expect(out.policies).toEqual(['examples/streaming-floor.ts']);
    const cell = (name: string) => out.cells.find((c: { name: string }) => c.name === name);
    const floor = cell('record 000: server.reinit=streaming-floor · record alphabet');
    expect(floor.combination.server.reinit).toBe('streaming-floor');
    expect(verdicts(floor)).toMatchObject({ 'no-silent-empty': 'holds', 'caps-immutable': 'holds', recovers: 'holds' });
    expect(floor.class).toBe('loud, recovers');
    const vulnerable = cell('record 000 vulnerable · record alphabet');
    expect(verdicts(vulnerable)['no-silent-empty']).toBe('violated');
  });

  it('is listed with its description', async () => {
    const r = await run('list', '--policies', 'examples/streaming-floor.ts');
    expect(r.stdout).toMatch(
      /streaming-floor\s+adopt the new capability set, but keep the streaming the first handshake granted \[from examples\/streaming-floor.ts\]/,
    );
  });
});

describe('registered policies in both engines', () => {
  it('give the same history under XState and under the compiled stepper', async () => {
    const { additions } = await loadPolicies(['examples/streaming-floor.ts', 'test/fixtures/policies/everything.ts']);
    const c = combination(
      { server: { reinit: 'streaming-floor' }, client: { reconnect: 'cached-new-session', guards: ['json-only'] } },
      additions,
    );
    expect(c.client.guards).toEqual(['json-only']);
    const input = {
      combination: c,
      workload: [call(), call(true), call()],
      plan: [
        { fault: 'config-reset' as const, at: 0 },
        { fault: 'http-503', at: 2 },
        { fault: 'http-502', at: 5 },
      ],
    };
    const compiled = JSON.stringify(runWorld(input, { ...DEFAULT_WORLD, engine: 'compiled', additions }));
    expect(compiled).toBe(JSON.stringify(runWorld(input, { ...DEFAULT_WORLD, engine: 'xstate', additions })));
    expect(compiled).toContain('SSE refused by json-only');
  });
});

describe('one addition of each kind', () => {
  const ALL = ['--policies', 'test/fixtures/policies/everything.ts'];

  it('a fault acts, a reconnect strategy opens new sessions with its handshake, a property is judged', async () => {
    const { out } = await json('check', ...ALL, '--client', 'reconnect=cached-new-session', '--faults', 'http-503,config-reset');
    expect(out.stats.faultsApplied['http-503']).toBeGreaterThan(20);
    const p = out.results.find((r: { property: string }) => r.property === 'at-most-one-reconnect');
    expect(p.verdict).toBe('violated');
    expect(p.counterexample.faults.every((f: { fault: string }) => f.fault === 'http-503')).toBe(true);
    // the cached first handshake keeps streaming: a new session never narrows, so nothing is silent
    expect(out.results.find((r: { property: string }) => r.property === 'no-silent-empty').verdict).toBe('holds');
  });

  it('a guard refuses responses loudly: every call, so the combination is broken without faults (exit 5)', async () => {
    const { code, out } = await json('check', ...ALL, '--client', 'guards=json-only', '--faults', 'http-502', '--runs', '30');
    expect(code).toBe(5);
    expect(out.brokenWithoutFaults.reason).toContain('SSE refused by json-only');
    expect(out.brokenWithoutFaults.failed.every((c: { end: string }) => c.end === 'error')).toBe(true);
    expect(out.results).toEqual([]);
  });

  it('a module cell joins the default matrix under its own alphabet and all faults', async () => {
    const { out } = await json('compare', ...ALL, '--runs', '20', '--client', 'reconnect=cached-new-session');
    expect(out.cells.map((c: { name: string }) => c.name)).toEqual([
      'cached-new-session under 503s · cell alphabet',
      'cached-new-session under 503s · all faults',
    ]);
    expect(out.cells[1].faults).toContain('http-503');
  });
});

describe('a policy that fails is a finding, not a crash', () => {
  it('one that throws: a shrunk policy-error finding, and the rest of the matrix still runs', async () => {
    const { code, out } = await json(
      'compare',
      '--policies',
      'test/fixtures/policies/throws.ts',
      '--server',
      'reinit=throws-on-reinit|pin-first',
      '--runs',
      '50',
    );
    expect(code).toBe(0);
    const broken = out.cells.filter((c: { class: string }) => c.class === 'policy-error');
    expect(broken.map((c: { name: string }) => c.name)).toEqual([
      'record 000: server.reinit=throws-on-reinit · record alphabet',
      'record 000: server.reinit=throws-on-reinit · all faults',
    ]);
    expect(out.cells.length - broken.length).toBe(2);
    for (const c of out.cells.filter((x: { class: string }) => x.class !== 'policy-error'))
      expect(c.results).toHaveLength(PROPERTIES.length);
    const f = out.findings.find((x: { kind: string }) => x.kind === 'policy-error');
    expect(f.properties[0].why).toBe(
      "server.reinit=throws-on-reinit: decide threw TypeError: Cannot read properties of undefined (reading 'caps')",
    );
    expect(f.plan).toEqual([{ fault: 'http-502', at: 2 }]);
    expect(f.history.at(-1)).toMatchObject({ kind: 'request', rpc: 'initialize' });
  });

  it('one that never returns: stopped by the time limit and reported the same way', async () => {
    const r = await run(
      'check',
      '--policies',
      'test/fixtures/policies/hangs.ts',
      '--client',
      'guards=spin',
      '--faults',
      'http-502',
      '--runs',
      '20',
      '--quiet',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('policy-error: client.guards=spin: checkResponse did not return within 1000 ms');
  });

  it('one that makes a run exceed the step budget', async () => {
    const { additions } = await loadPolicies(['examples/streaming-floor.ts']);
    const c = combination({ server: { reinit: 'streaming-floor' } }, additions);
    const input = { combination: c, workload: [call(), call()], plan: [] };
    expect(() => runWorld(input, { ...DEFAULT_WORLD, stepBudget: 5, additions })).toThrow(PolicyError);
    expect(() => runWorld(input, { ...DEFAULT_WORLD, stepBudget: 5, additions })).toThrow(
      /did not terminate within the step budget \(5 events\)/,
    );
    // Built-ins alone keep the old behaviour: the run is cut and marked.
    const h = runWorld({ ...input, combination: combination({}, NO_ADDITIONS) }, { ...DEFAULT_WORLD, stepBudget: 5 });
    expect(h.entries.find((e) => e.kind === 'budget-exhausted')).toEqual({ t: expect.any(Number), kind: 'budget-exhausted', steps: 5 });
  });

  it('answers the model cannot use are policy errors too', async () => {
    const { additions } = registerPolicies(
      {
        server: {
          reinit: {
            nonsense: { describe: 'returns a capability that does not exist', decide: () => ({ kind: 'adopt', caps: ['telepathy'] }) },
          },
        },
      },
      'inline',
    );
    const input = {
      combination: combination({ server: { reinit: 'nonsense' } }, additions),
      workload: [call()],
      plan: [{ fault: 'http-502', at: 2 }],
    };
    const h = () => runWorld(input, { ...DEFAULT_WORLD, additions });
    expect(h).toThrow(/^decide returned \{"kind":"adopt","caps":\["telepathy"\]\}: unknown capability "telepathy"/);
    try {
      h();
    } catch (e) {
      expect(e).toMatchObject({ policy: 'server.reinit=nonsense', reason: 'bad-return' });
    }
  });
});
