// The CLI as users drive it: JSON verdicts, exit codes, and one-line errors on bad input.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itRejects, run } from './run.ts';

const SEED_000 = [
  '--server',
  'reinit=honor-last,streaming=negotiated,advertise=static',
  '--client',
  'reconnect=replay-mutable,parser=pinned,guards=',
];

describe('check --json', () => {
  it('reports the record-000 combination violated, with faults config-reset then http-502', async () => {
    const r = await run('check', ...SEED_000, '--faults', 'http-502,config-reset', '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.combination).toEqual({
      server: { reinit: 'honor-last', streaming: 'negotiated', advertise: 'static', protocol: '2025-11-25', idempotency: 'none' },
      client: { reconnect: 'replay-mutable', accept: 'always', parser: 'pinned', guards: [], protocol: '2025-11-25', reissue: 'always' },
    });
    const p = out.results.find((x: { property: string }) => x.property === 'no-silent-empty');
    expect(p.verdict).toBe('violated');
    expect(p.counterexample.faults.map((f: { fault: string }) => f.fault)).toEqual(['config-reset', 'http-502']);
    expect(p.outcomes['silent-empty']).toBeGreaterThan(0);
    expect(typeof p.counterexample.seed).toBe('number');
    expect(typeof p.counterexample.path).toBe('string');
  });

  it('reports the record-003 combination violated, with strip-header:transfer-encoding', async () => {
    const r = await run(
      'check',
      '--server',
      'advertise=static',
      '--client',
      'parser=pinned,guards=',
      '--faults',
      'strip-header:transfer-encoding',
      '--property',
      'no-silent-hang',
      '--json',
    );
    expect(r.code).toBe(1);
    const [p] = JSON.parse(r.stdout).results;
    expect(p.verdict).toBe('violated');
    expect(p.counterexample.faults).toEqual([{ fault: 'strip-header:transfer-encoding', at: 0 }]);
  });

  it('exits 0 when the mitigations hold', async () => {
    const r000 = await run(
      'check',
      '--server',
      'reinit=pin-first',
      '--faults',
      'http-502,config-reset',
      '--property',
      'no-silent-empty',
      '--json',
    );
    expect(r000.code).toBe(0);
    expect(JSON.parse(r000.stdout).results[0].verdict).toBe('holds');
    const r003 = await run(
      'check',
      '--client',
      'parser=adaptive',
      '--faults',
      'strip-header:transfer-encoding',
      '--property',
      'no-silent-hang',
      '--json',
    );
    expect(r003.code).toBe(0);
  });

  it('prints a readable table with the reproducing command without --json', async () => {
    const r = await run('check', ...SEED_000, '--faults', 'http-502,config-reset', '--property', 'no-silent-empty', '--quiet');
    expect(r.stdout).toMatch(/no-silent-empty\s+VIOLATED/);
    expect(r.stdout).toContain('config-reset before request 0, then http-502 at request 2');
    expect(r.stdout).toContain('reproduce mcp-faultsim check --server reinit=honor-last');
  });
});

describe('check of a combination broken without faults', () => {
  it('says so on its first line, tries no fault, and exits 5 (the README first-user case)', async () => {
    const r = await run('check', '--client', 'protocol=2026-07-28', '--faults', 'http-502', '--runs', '20', '--quiet');
    expect(r.code).toBe(5);
    expect(r.stdout.split('\n')[0]).toBe(
      'BROKEN WITHOUT FAULTS: the client speaks only 2026-07-28; the server only 2025-11-25. No fault was tried: every fault run would fail for this reason alone.',
    );
    expect(r.stdout).toMatch(/call 0: error \(HTTP 400 \(-32000 Bad Request: Mcp-Session-Id header is required\)\)/);
    expect(r.stdout).not.toContain('VIOLATED'); // no property verdict pretends to say something about faults
    const json = await run('check', '--server', 'protocol=2026-07-28', '--json');
    expect(json.code).toBe(5);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.brokenWithoutFaults.reason).toBe('the client speaks only 2025-11-25; the server only 2026-07-28');
    expect(parsed.results).toEqual([]);
    // The same sides on one revision, or one side speaking both, meet: an ordinary check.
    expect(
      (await run('check', '--client', 'protocol=negotiate', '--server', 'protocol=2026-07-28', '--runs', '20', '--quiet')).code,
    ).not.toBe(5);
  });
});

describe('bad input', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'unknown knob',
      ['check', '--server', 'retry=3'],
      /unknown server knob 'retry' \(valid: reinit, streaming, advertise, protocol, idempotency\)/,
    ],
    ['unknown value', ['check', '--client', 'parser=clever'], /unknown client.parser value 'clever' \(valid: pinned, adaptive\)/],
    ['unknown guard', ['check', '--client', 'guards=probe+magic'], /unknown client.guards value 'magic'/],
    ['a value list on check', ['check', '--server', 'reinit=reject|pin-first'], /check takes one value/],
    ['unknown fault', ['check', '--faults', 'earthquake'], /unknown fault 'earthquake' \(valid: http-502/],
    ['unknown property', ['check', '--property', 'no-bugs'], /unknown property 'no-bugs' \(valid: no-silent-empty/],
    ['bad number', ['check', '--runs', 'many'], /--runs must be a whole number/],
    ['unknown option', ['check', '--colour'], /unknown option '--colour'/],
    ['unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  ];
  itRejects(cases);
});

describe('list and help', () => {
  it('list prints every knob, value, default, fault and property', async () => {
    const r = await run('list');
    expect(r.code).toBe(0);
    for (const word of [
      'server.reinit',
      'honor-last',
      'new-session',
      'client.guards',
      'compare-init',
      'probe',
      'strip-header',
      'last-event-id',
      'session-expire',
      'delay',
      'recovers',
      'transport-expressible',
      '(default: honor-last; 2025-11-25 only)',
      'client.reissue — which calls the client sends again after a broken stream or a failed attempt (default: always; the full matrix holds it at its default)',
      'compare-init, probe: 2025-11-25 only',
      'server.protocol',
      'dual',
      'client.protocol',
      'negotiate',
      'client.reissue',
      'idempotent-only',
      'at-most-once',
    ]) {
      expect(r.stdout).toContain(word);
    }
    const json = JSON.parse((await run('list', '--json')).stdout);
    expect(json.server.reinit.values).toEqual(['honor-last', 'pin-first', 'reject', 'idempotent', 'new-session']);
    expect(json.properties).toHaveLength(7);
    expect(json.properties.find((p: { property: string }) => p.property === 'at-most-once')).toMatchObject({
      family: 'silent',
      column: 'once',
    });
    expect(json.server.protocol).toMatchObject({ default: '2025-11-25', fullMatrix: 'default' });
  });

  it('every command has --help', async () => {
    for (const cmd of ['check', 'compare', 'replay', 'merge', 'list', 'proxy']) {
      const r = await run(cmd, '--help');
      expect(r.code, cmd).toBe(0);
      expect(r.stdout, cmd).toMatch(new RegExp(`^usage: mcp-faultsim ${cmd}`));
    }
    expect((await run('--help')).stdout).toContain('commands:');
    // The Node versions it names are package.json's engines and the two .ci/run tests on.
    const engines = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).engines.node;
    expect((await run('--help')).stdout).toContain(`\nNode ${engines} (CI tests Node 20 and 24); this is Node ${process.versions.node}.\n`);
  });
});

describe('the installed entry point', () => {
  it('runs through bin/ and exits with the status, errors on one line', () => {
    const cwd = new URL('../../..', import.meta.url).pathname;
    const ok = execFileSync(process.execPath, ['bin/mcp-faultsim.js', 'list'], { cwd, encoding: 'utf8' });
    expect(ok).toContain('server knobs:');
    const bad = spawnSync(process.execPath, ['bin/mcp-faultsim.js', 'check', '--server', 'reinit=nope'], { cwd, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      "mcp-faultsim: unknown server.reinit value 'nope' (valid: honor-last, pin-first, reject, idempotent, new-session)\n",
    );
  });
});
