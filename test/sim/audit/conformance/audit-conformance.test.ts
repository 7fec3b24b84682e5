// `audit --conformance` as a user runs it, in its own process: the official conformance suite (pinned,
// .ci/conformance) beside the audit's own probe, on server-everything and on a server behind a bearer
// token (test/fixtures/servers/orders-server.mjs), each started by the audit itself on loopback. One
// report: the suite's checks merged into the spec lens by requirement, its known false passes
// marked; the suite reaches the token-protected server only through the audit's relay, and the token
// is in no output. A missing install fails here (never a skip): `bash .ci/test-setup.sh` installs it.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditResult } from '../../../../sim/audit/audit-row.ts';
import { findSuite } from '../../../../sim/audit/conformance/install.ts';
import { runSuite } from '../../../../sim/audit/conformance/run-suite.ts';
import { LOCAL_UPSTREAM } from '../../../../sim/wire/process/upstream.ts';
import { EVERYTHING } from '../../../fixtures/servers.ts';
import { certificates, freePort, httpsOrdersServer } from '../../../fixtures/tls.ts';
import { ROOT, tempDir } from '../../cli/run.ts';

const TOKEN = 'tok-c0nf0rmance-4b1d';
const ORDERS = [
  '--serve',
  'node test/fixtures/servers/orders-server.mjs --port {port}',
  '--call',
  'search_orders',
  '--args',
  '{"customer":"ada"}',
  '--call',
  'place_order',
  '--args',
  '{"customer":"ada","item":"tea"}',
];

function audit(argv: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/mcp-faultsim.js', 'audit', ...argv], {
    cwd: ROOT,
    env: { ...process.env, ORDERS_TOKEN: TOKEN, ORDERS_AUTH: `Bearer ${TOKEN}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const row = (a: AuditResult, slug: string, revision: string) =>
  a.conformance!.requirements.find((r) => r.slug === slug && r.revision === revision)!;

describe('audit --conformance', () => {
  it('the suite is installed where the audit looks for it (bash .ci/test-setup.sh)', () => {
    expect(findSuite().version).toBe('0.2.0-alpha.12');
  });

  it('server-everything: one report; both tools find the Origin MUST broken; the suite passes a call to a tool the server lacks, marked false', async () => {
    const out = tempDir('conformance-everything');
    const r = await audit(['--serve', EVERYTHING, '--only', 'foreign-origin', '--conformance', '--quiet', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const a = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')) as AuditResult;
    expect(a.conformance!.runs).toEqual([
      { revision: '2025-11-25', command: 'conformance server --url <relay to the server> --requirements 2025-11-25', scenarios: 33 },
    ]);
    expect(row(a, 'security.origin-403', '2025-11-25')).toMatchObject({ audit: 'violates', suite: 'fail', agreement: 'agree' });
    const simple = a.conformance!.suiteOnly.find((c) => c.check === 'tools-call-simple-text')!;
    expect(simple).toMatchObject({ status: 'SUCCESS', verdict: 'false pass' });
    expect(simple.why).toMatch(/no tool test_simple_text/);
    // The terminal report and audit.md carry the merged section under the audit's own table.
    expect(r.stdout).toMatch(/@modelcontextprotocol\/conformance 0\.2\.0-alpha\.12, merged with the spec lens by requirement/);
    expect(r.stdout).toMatch(/security\.origin-403 +2025-11-25 +MUST +violates +fail +agree/);
    expect(r.stdout).toMatch(/false pass +2025-11-25 tools-call-simple-text: the server has no tool test_simple_text/);
    expect(readFileSync(join(out, 'audit.md'), 'utf8')).toMatch(/## The official conformance suite/);
    expect(readFileSync(join(out, 'audit.html'), 'utf8')).toMatch(/<h2>The official conformance suite<\/h2>/);
    const junit = readFileSync(join(out, 'audit.junit.xml'), 'utf8');
    expect(junit).toMatch(
      /classname="audit.conformance" name="2025-11-25 dns-rebinding-protection\/localhost-host-rebinding-rejected" time="0">\n\s+<failure type="spec-violation"/,
    );
    expect(junit).toMatch(/name="2025-11-25 tools-call-simple-text\/tools-call-simple-text" time="0">\n\s+<skipped message="false pass: /);
    // One exit: the suite's scored failure (the Origin check) is a spec violation, so --strict fails.
    expect(a.conforms).toBe(false);
  }, 120_000);

  it('a server behind a bearer token: the suite gets past it through the relay in both revisions; --strict exits 1; the baseline lists both tools; the token nowhere', async () => {
    const out = tempDir('conformance-orders');
    const baseline = join(out, 'baseline.yaml');
    const dir = join(out, 'report');
    const argv = [...ORDERS, '--header-env', 'Authorization=ORDERS_AUTH', '--only', 'foreign-origin', '--conformance', '--strict'];
    const r = await audit([...argv, '--out', dir, '--write-baseline', baseline, '--quiet']);
    expect(r.code).toBe(1);
    const a = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8')) as AuditResult;
    expect(a.conformance!.runs.map((x) => x.revision)).toEqual(['2025-11-25', '2026-07-28']);
    // Past the token: the suite listed the server's own tools (a 401 would list none).
    const runs = a.conformance!.suiteOnly.filter((c) => c.scenario === 'tools-list' && c.check === 'tools-list');
    expect(runs.map((c) => c.verdict)).toEqual(['pass', 'pass']);
    expect(row(a, 'security.origin-403', '2026-07-28')).toMatchObject({ audit: 'violates', suite: 'fail', agreement: 'agree' });
    expect(row(a, 'server.discover', '2026-07-28').suite).toBe('pass');
    const written = readFileSync(baseline, 'utf8');
    expect(written).toMatch(/id: "foreign-origin"\n {4}requirement: "2026-07-28\/origin-403"/);
    expect(written).toMatch(/id: "conformance 2026-07-28 dns-rebinding-protection"\n {4}requirement: "localhost-host-rebinding-rejected"/);
    expect(written).toMatch(/# written by: .* --header-env Authorization=ORDERS_AUTH --conformance/);
    for (const text of [r.stdout, r.stderr, written, ...readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'))])
      expect(text).not.toContain(TOKEN);
    // The same run against its own baseline: exit 0, both tools' non-passes expected.
    const again = await audit([...argv, '--baseline', baseline, '--quiet']);
    expect(again.stdout).toMatch(/the run matches the baseline \(exit 0\)/);
    expect(again.code).toBe(0);
  }, 180_000);

  it('over https with --ca (a CA this test makes): the relay verifies the server with it, and the suite gets past the token in both revisions', async () => {
    const tls = certificates();
    const { url, process: server } = await httpsOrdersServer(tls, TOKEN);
    try {
      const out = tempDir('conformance-https');
      const calls = ORDERS.slice(2);
      const r = await audit([
        '--target',
        url,
        '--ca',
        tls.ca,
        ...calls,
        '--header-env',
        'Authorization=ORDERS_AUTH',
        '--only',
        'foreign-origin',
        '--conformance',
        '--quiet',
        '--out',
        out,
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const a = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')) as AuditResult;
      expect(a.conformance!.runs.map((x) => x.revision)).toEqual(['2025-11-25', '2026-07-28']);
      // The suite listed the server's own tools over https in both revisions: through the relay, past the token.
      const listed = a.conformance!.suiteOnly.filter((c) => c.scenario === 'tools-list' && c.check === 'tools-list');
      expect(listed.map((c) => [c.revision, c.verdict])).toEqual([
        ['2025-11-25', 'pass'],
        ['2026-07-28', 'pass'],
      ]);
      for (const text of [r.stdout, ...readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'))]) expect(text).not.toContain(TOKEN);
    } finally {
      server.kill();
    }
  }, 180_000);

  it("a server the relay never reaches: one error that says so, not a report of the relay's own 502s", async () => {
    const port = await freePort();
    await expect(runSuite(findSuite(), `http://127.0.0.1:${port}/mcp`, LOCAL_UPSTREAM, ['2025-11-25'])).rejects.toThrow(
      new RegExp(
        `^none of the suite's \\d+ requests of 2025-11-25 reached the server through the relay: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`,
      ),
    );
  }, 120_000);
});
