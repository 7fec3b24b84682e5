// Policy modules that attack the CLI rather than the model, run as a user runs them (the process):
// a hook that calls process.exit, a module that exits, loops or never settles while loading, and a
// fault that answers initialize with an empty 200; and a server whose fault-free run fails. Each is one line of bad input (exit 2) or a
// policy-error finding, never a silent exit that reads as "every property holds".
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run, tempDir } from './run.ts';

// The import time limit is the default (20 s) except for the module that loops, which needs it short
// (a 2 s limit failed the modules that do load, on a loaded machine).
function cli(...argv: string[]) {
  const loops = argv.some((a) => a.includes('loops-at-import'));
  const r = spawnSync(process.execPath, ['bin/mcp-faultsim.js', ...argv], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, ...(loops ? { MCP_FAULTSIM_IMPORT_TIME_LIMIT_MS: '2000' } : {}) },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const fixture = (name: string) => `test/fixtures/policies/${name}.ts`;

describe('hostile policy modules', () => {
  it('a hook that calls process.exit(0) is a policy-error finding and exit 1, not a silent exit 0', () => {
    const r = cli('check', '--policies', fixture('exits-in-hook'), '--client', 'guards=quitter', '--runs', '20', '--quiet');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('policy-error: client.guards=quitter: checkResponse called process.exit(0): a hook may not end the process');
  }, 120_000);

  const bad: [string, RegExp][] = [
    ['exits-at-import', /cannot load it: it calls process\.exit\(0\) while loading/],
    ['loops-at-import', /cannot load it: it did not finish loading within 2 s/],
    ['never-settles', /cannot load it: it never settles its top-level await/],
  ];
  for (const [name, message] of bad) {
    it(`a module that ${name.replace(/-/g, ' ')}: one line, exit 2`, () => {
      const r = cli('check', '--policies', fixture(name), '--runs', '5', '--quiet');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }, 120_000);
  }

  it('a fault answering initialize with an empty 200 is a policy-error finding; the compare finishes', async () => {
    const out = tempDir('empty200');
    const r = await run(
      'compare',
      '--policies',
      fixture('empty-initialize'),
      '--server',
      'reinit=honor-last',
      '--client',
      'reconnect=replay-mutable,guards=',
      '--runs',
      '20',
      '--quiet',
      '--json',
      '--out',
      out,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    const cell = c.cells.find((x: { name: string }) => x.name === 'record 000: empty 200 everywhere · record alphabet');
    expect(cell.class).toBe('policy-error');
    const f = c.findings.find((x: { cell: string; kind: string }) => x.cell === cell.id && x.kind === 'policy-error');
    expect(f.properties[0].why).toMatch(/^fault empty-ok: response returned .*a 2xx answer to a JSON-RPC request must carry a message/);
    expect(c.cells.filter((x: { class: string }) => x.class !== 'policy-error').length).toBeGreaterThan(0);
  }, 120_000);
});

describe('a baseline that does not work', () => {
  it('a server whose every answer is broken JSON: exit 2 with one line, not "every property holds"', () => {
    const r = cli(
      'check',
      '--wire',
      '--serve',
      'node test/fixtures/servers/broken-json.mjs {port}',
      '--client',
      'sdk',
      '--runs',
      '5',
      '--quiet',
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^mcp-faultsim: check --wire: the fault-free reference run fails \(call 0 .*\); nothing can be judged against a baseline that does not work\n$/,
    );
  }, 90_000);
});

describe('a module the cell thread cannot load', () => {
  it('runs the cells in the main thread: the cells are reported, no stack trace, exit 0', () => {
    // Record 000's vulnerable combination (its cells under the two alphabets and the like), over IN_THREAD_RUNS
    // (compare/cell-threads.ts) so that its cells wait for the cell thread, which fails to load the module.
    const out = tempDir('cell-thread');
    const r = cli(
      'compare',
      '--server',
      'reinit=honor-last,streaming=negotiated,advertise=static,protocol=2025-11-25',
      '--client',
      'reconnect=replay-mutable,accept=always,parser=pinned,guards=,protocol=2025-11-25,reissue=always',
      '--runs',
      '1001',
      '--policies',
      fixture('fails-in-pool-thread'),
      '--quiet',
      '--out',
      out,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
    const ids = json.cells.map((c: { id: string }) => c.id);
    expect(ids).toContain('record-000-vulnerable-record-alphabet');
    expect(ids).toContain('record-000-vulnerable-all-faults');
    expect(json.findings.map((f: { id: string }) => f.id)).toContain('record-000-vulnerable-record-alphabet--no-silent-empty');
  }, 120_000);
});
