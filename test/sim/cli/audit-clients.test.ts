// `audit --clients MANIFEST` and bad harnesses on the command line: the matrix of two small fakes
// (test/fixtures/clients/), its report set and standalone reproductions; a broken manifest is one
// line and exit 2; a harness that dies, prints garbage or never answers is one line (exit 2, or 4 by
// the watchdog), and leaves no process. About 20 s in all.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { liveGroups } from '../../../sim/wire/process/process-groups.ts';
import { itRejects, run, tempDir } from './run.ts';

const FAKES = 'test/fixtures/clients/fakes.json';

function manifest(entries: unknown): string {
  const path = join(tempDir('manifest'), 'clients.json');
  writeFileSync(path, typeof entries === 'string' ? entries : JSON.stringify(entries));
  return path;
}

const entry = (over: Record<string, unknown>) => ({
  name: 'x',
  package: 'x',
  version: '1',
  revisions: ['2025-11-25'],
  command: 'node x.mjs',
  node: '20',
  wraps: null,
  defaultTimeoutMs: null,
  notes: '',
  ...over,
});

describe('audit --clients', () => {
  it('audits every client in its revisions against both servers: both verdicts, the broken MUST, a reproduction that runs alone', async () => {
    const dir = tempDir('clients');
    const out = join(dir, 'out');
    const repro = join(dir, 'repro');
    const r = await run(
      'audit',
      '--clients',
      FAKES,
      '--only',
      'unknown-session,cut-reissue-once',
      '--out',
      out,
      '--repro',
      repro,
      '--quiet',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^fake-reissue 2026-07-28 model: cut-reissue-once pass \/ pass: re-issued$/m);
    expect(r.stdout).toMatch(/^fake-reissue 2026-07-28 sdk2: cut-reissue-once pass \/ pass: re-issued$/m);
    expect(r.stdout).toMatch(/^fake-stale-session 2025-11-25 sdk2: unknown-session pass \/ stuck: error !$/m);
    const matrix = JSON.parse(readFileSync(join(out, 'clients.json'), 'utf8'));
    expect(matrix.audits.map((a: { client: string; revision: string; server: string }) => `${a.client} ${a.revision} ${a.server}`)).toEqual(
      [
        'fake-reissue 2026-07-28 model',
        'fake-reissue 2026-07-28 sdk2',
        'fake-stale-session 2025-11-25 model',
        'fake-stale-session 2025-11-25 sdk2',
      ],
    );
    const failing = matrix.rows.filter((x: { nonPass: boolean }) => x.nonPass);
    expect(failing.map((x: { broken: { requirement: string }[] }) => x.broken.map((b) => b.requirement))).toEqual([
      ['2025-11-25/client-new-session-after-404'],
      ['2025-11-25/client-new-session-after-404'],
    ]);
    // Node 24 is resolved for a "node": "24" client, in the command that reproduces it.
    expect(failing[0].reproduce).toBe(
      "mcp-faultsim audit --client-cmd '.ci/node24/node_modules/.bin/node test/fixtures/clients/fake-client.mjs stale-session' --revision 2025-11-25 --server 'streaming=accept-header,protocol=2025-11-25' --only unknown-session",
    );
    const md = readFileSync(join(out, 'clients.md'), 'utf8');
    expect(md).toMatch(/breaks `2025-11-25\/client-new-session-after-404` \(MUST\): “When a client receives HTTP 404/);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(out, 'clients.junit.xml'), 'utf8'));
    expect(junit.testsuites['@_failures']).toBe('2');
    const folder = join(repro, 'fake-stale-session-2025-11-25-sdk2-unknown-session');
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ '@modelcontextprotocol/server': '2.4.0' });
    const script = readFileSync(join(folder, 'repro.mjs'), 'utf8');
    expect(script).not.toMatch(/mcp-faultsim['/]|sim\//);
    expect(existsSync(join(folder, 'harness.mjs'))).toBe(true);
    expect(liveGroups()).toEqual([]);
  }, 90_000);

  it('an audit whose harness dies is reported as not finished (exit 4); the others still run', async () => {
    const path = manifest([
      entry({ name: 'dies', command: 'sh -c \'echo "{not json"; exit 3\'' }),
      entry({ name: 'ok', command: 'node test/fixtures/clients/fake-client.mjs reissue', revisions: ['2026-07-28'] }),
    ]);
    const r = await run('audit', '--clients', path, '--only', 'http-502-call', '--quiet');
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(
      /^dies 2025-11-25 model: did not finish: audit --clients: dies in 2025-11-25: the fault-free reference run fails \(call 0 failed: client process exited \(status 3\)/m,
    );
    expect(r.stdout).toMatch(/^ok 2026-07-28 sdk2: http-502-call pass \/ pass: error$/m);
    expect(liveGroups()).toEqual([]);
  }, 60_000);

  itRejects([
    [
      'an unreadable manifest',
      ['audit', '--clients', '/nonexistent/clients.json'],
      /cannot read the client manifest \/nonexistent\/clients\.json: ENOENT/,
    ],
    ['a manifest that is not JSON', ['audit', '--clients', manifest('[{')], /clients\.json is not JSON: /],
    [
      'a manifest entry without its command',
      ['audit', '--clients', manifest([entry({ command: undefined })])],
      /entry 0 \(x\): "command" must be a non-empty string$/m,
    ],
    [
      'a revision no client speaks',
      ['audit', '--clients', manifest([entry({ revisions: ['2024-01-01'] })])],
      /unknown revision "2024-01-01"/,
    ],
    [
      'a server with --clients',
      ['audit', '--clients', FAKES, '--server', 'sdk-sse'],
      /give --clients or --server, not both \(the manifest names the clients/,
    ],
    ['--repro without --clients', ['audit', '--client-cmd', 'x', '--repro', '/tmp/x'], /--repro needs --clients/],
  ]);
});

describe('a bad harness behind --client-cmd', () => {
  it('one that dies after printing garbage: one line, exit 2, no process left', async () => {
    const r = await run('audit', '--client-cmd', "echo 'garbage {'; exit 3", '--only', 'http-502-call', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/the fault-free reference run fails \(call 0 failed: client process exited \(status 3\)/);
    expect(liveGroups()).toEqual([]);
  }, 30_000);

  it('a command that does not exist: one line, exit 2', async () => {
    const r = await run('audit', '--client-cmd', 'no-such-harness-command', '--only', 'http-502-call', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/client process exited \(status 127\): .*no-such-harness-command.*not found/);
    expect(liveGroups()).toEqual([]);
  }, 30_000);

  it('a Node harness that cannot start: its first error line (Cannot find module …), not the runtime banner under it', async () => {
    const r = await run('audit', '--client-cmd', 'node examples/clients/no-such-harness.mjs', '--only', 'http-502-call', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/client process exited \(status 1\): Error: Cannot find module '.*no-such-harness\.mjs'/);
    expect(r.stderr).not.toMatch(/Node\.js v/);
    expect(liveGroups()).toEqual([]);
  }, 30_000);

  it('one that prints garbage and never answers: ended by the watchdog, exit 4, no process left', async () => {
    const r = await run(
      'audit',
      '--client-cmd',
      "echo 'garbage {'; exec sleep 60",
      '--watchdog',
      '1',
      '--only',
      'http-502-call',
      '--quiet',
    );
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^outcome watchdog: run 1 did not finish within 1 s/m);
    expect(liveGroups()).toEqual([]);
  }, 30_000);
});
