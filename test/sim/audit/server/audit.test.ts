// The audit against the official SDK servers in-process, each scenario's verdict pinned, and the
// CLI around it: exit statuses, bad input, the --out set (JUnit parsed by a real XML parser).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../../../sim/audit/server/runner.ts';
import { PROBES } from '../../../../sim/audit/server/probes.ts';
import { TRANSPORT_PROBES } from '../../../../sim/audit/server/transport-probes.ts';
import { AUTH_PROBE } from '../../../../sim/audit/server/auth-probe.ts';
import { SCENARIOS } from '../../../../sim/audit/scenarios.ts';
import { itRejects, run, tempDir } from '../../cli/run.ts';
import { literalVerdictsOf, specVerdictsOf, verdictsOf } from '../../../fixtures/audit-cli.ts';

const NA = 'not applicable';
/** The transport probes are spec-only: their row reads not applicable, their spec verdict is pinned apart. */
const SPEC_PROBES = [...TRANSPORT_PROBES, AUTH_PROBE].map((p) => p.name);
const SPEC_PROBES_NA = Object.fromEntries(SPEC_PROBES.map((n) => [n, NA]));

describe('audit of the SDK v1 server (sdk-sse)', () => {
  it('pins every verdict: only the re-initialize on a live session is loud (HTTP 400, the session dies, a new one heals)', async () => {
    const a = await runAudit({ kind: 'sdk', preset: 'sdk-sse' }, { serverArgs: '--server sdk-sse' });
    expect(verdictsOf(a)).toEqual({
      'reinit-live-session': 'loud',
      'unknown-session': 'pass',
      'server-restart': 'pass',
      'stream-cut-call': 'pass',
      'http-502-call': 'pass',
      'held-past-deadline': 'pass',
      'strip-accept': 'pass',
      'strip-session-id': 'pass',
      'strip-last-event-id': 'pass',
      'strip-transfer-encoding': 'pass',
      // The SDK's server takes an unchunked initialize as it is: no fallback, nothing to judge.
      'progress-after-fallback': 'not tested',
      'strip-protocol-version': NA,
      'cut-reissue-once': NA,
      'get-405': NA,
      'server-discover': NA,
      'mismatch-protocol-version': NA,
      'two-callers-one-id': 'pass',
      'close-cancels': NA,
      ...SPEC_PROBES_NA,
    });
    // The transport probes: the in-process SDK server has no Origin check (enableDnsRebindingProtection is
    // off by default), and answers only one of two calls reusing an id in one session (the client's fault).
    expect(specVerdictsOf(a)).toMatchObject({
      'invalid-protocol-version': 'conforms',
      'foreign-origin': 'violates',
      'post-notification-202': 'conforms',
      'delete-then-request': 'conforms',
      'made-up-session': 'conforms',
      'id-reused-in-flight': 'conforms',
      'message-schema': 'conforms',
    });
    // The spec lens: what the SDK does where the spec speaks (the rest observes no requirement here).
    expect(specVerdictsOf(a)).toMatchObject({
      'reinit-live-session': 'unspecified',
      'unknown-session': 'conforms',
      'server-restart': 'conforms',
      'stream-cut-call': 'optional, not implemented',
      'strip-accept': 'conforms',
      'strip-session-id': 'conforms',
      'http-502-call': 'not tested',
      'get-405': 'conforms',
      'two-callers-one-id': 'conforms',
    });
    expect(a.conforms).toBe(false); // the Origin check alone
    // A spec-literal client never re-initializes a live session: where the forgiving one is loud, it passes.
    expect(literalVerdictsOf(a)).toMatchObject({ 'reinit-live-session': 'pass', 'unknown-session': 'pass' });
    const by = new Map(a.scenarios.map((s) => [s.name, s]));
    expect(by.get('reinit-live-session')!.evidence).toMatch(/502 .*load balancer.*call 1 error \(replay handshake failed: HTTP 400\)/);
    expect(by.get('unknown-session')!.evidence).toMatch(/session-expire on req 3 tools\/call → 404 application\/json/);
    expect(by.get('strip-accept')!.evidence).toMatch(/→ 406/);
    expect(by.get('strip-protocol-version')!.why).toBe('the server speaks 2025-11-25; the scenario is for 2026-07-28');
    expect(by.get('reinit-live-session')!.reproduce.audit).toBe('mcp-faultsim audit --server sdk-sse --only reinit-live-session');
    expect(a.passed).toBe(false);
  });

  it('a JSON-answering server leaves the stream cuts not tested (nothing to cut), never a vacuous pass', async () => {
    const a = await runAudit(
      { kind: 'sdk', preset: 'sdk-json' },
      { serverArgs: '--server sdk-json', only: ['stream-cut-call', 'unknown-session'] },
    );
    expect(verdictsOf(a)).toEqual({ 'unknown-session': 'pass', 'stream-cut-call': 'not tested' });
    expect(a.scenarios[1]!.why).toBe('the fault did not act (stream-cut: no complete SSE stream to cut)');
  });
});

describe('audit of the SDK v2 server (sdk2-sse)', () => {
  it('in 2026-07-28: the stripped MCP-Protocol-Version is refused with 400; a cut stream re-issued runs the tool twice (a protocol hazard)', async () => {
    const a = await runAudit(
      { kind: 'sdk2', preset: 'sdk2-sse', protocol: '2026-07-28' },
      { serverArgs: '--server sdk2-sse,protocol=2026-07-28' },
    );
    const legacyOnly = SCENARIOS.filter((s) => !s.revisions.includes('2026-07-28')).map((s) => s.name);
    expect(verdictsOf(a)).toEqual({
      ...Object.fromEntries(legacyOnly.map((n) => [n, NA])),
      'http-502-call': 'pass',
      'strip-protocol-version': 'pass',
      'cut-reissue-once': 'protocol hazard',
      'get-405': NA,
      'server-discover': NA,
      'mismatch-protocol-version': NA,
      'two-callers-one-id': 'pass',
      // No slow tool to close a stream on (an in-process preset has no --slow-call): not tested, with the flag.
      'close-cancels': 'not tested',
      ...SPEC_PROBES_NA,
    });
    expect(specVerdictsOf(a)).toMatchObject({
      'foreign-origin': 'violates',
      'post-notification-202': 'conforms',
      'message-schema': 'conforms',
      'strip-protocol-version': 'conforms',
      'get-405': 'conforms',
      'server-discover': 'conforms',
      'mismatch-protocol-version': 'conforms',
      'two-callers-one-id': 'conforms',
    });
    const by = new Map(a.scenarios.map((s) => [s.name, s]));
    expect(by.get('strip-protocol-version')!.evidence).toMatch(/mcp-protocol-version on req 1 tools\/call → 400 application\/json/);
    expect(by.get('cut-reissue-once')!.why).toMatch(/^at-most-once: call 1's side-effecting tool ran 2 times.*the closed SEP-3182/);
    // Against a 2026-07-28-only server the 502 is placed for a 2026-07-28 client (a 2025-11-25 one cannot even connect).
    expect(by.get('http-502-call')!.plan).toBe('http-502 at request 1');
    expect(by.get('http-502-call')!.evidence).toMatch(/^http-502 on req 1 tools\/call → 502 .*call 1 ok .* ×2/);
    expect(by.get('http-502-call')!.reproduce.check).toMatch(/protocol=2026-07-28/);
  });

  it('in 2025-11-25 it audits like the v1 server', async () => {
    const a = await runAudit({ kind: 'sdk2', preset: 'sdk2-sse', protocol: '2025-11-25' }, { serverArgs: '--server sdk2-sse' });
    expect(verdictsOf(a)).toMatchObject({
      'reinit-live-session': 'loud',
      'unknown-session': 'pass',
      'stream-cut-call': 'pass',
      'cut-reissue-once': NA,
    });
    expect(a.scenarios.filter((s) => s.verdict === 'pass')).toHaveLength(10);
    expect(a.scenarios.find((s) => s.name === 'progress-after-fallback')!.verdict).toBe('not tested');
  });
});

describe('mcp-faultsim audit (CLI)', () => {
  it('exit 1 when a scenario does not pass, 0 when every one does (n/a counts as a pass)', async () => {
    const failing = await run('audit', '--server', 'sdk-sse', '--quiet', '--only', 'reinit-live-session,unknown-session');
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/reinit-live-session\s+loud/);
    expect(failing.stdout).toMatch(/reproduce {2}mcp-faultsim audit --server sdk-sse --only reinit-live-session/);
    for (const line of failing.stdout.split('\n').slice(0, 6)) expect(line.length).toBeLessThanOrEqual(120);
    const passing = await run('audit', '--server', 'sdk-sse', '--quiet', '--only', 'unknown-session,cut-reissue-once');
    expect(passing.code).toBe(0);
    expect(passing.stdout).toMatch(
      /1 pass, 1 not applicable \(1 of 2 rows judged nothing\); spec lens: 1 conforms, 1 not tested: no printed verdict fails the audit \(exit 0\)/,
    );
    // --strict changes nothing where the spec lens finds no violation.
    expect((await run('audit', '--server', 'sdk-sse', '--quiet', '--strict', '--only', 'unknown-session')).code).toBe(0);
  });

  it('--out writes the four files; the JUnit file has one testcase per scenario, failures and skips where the verdicts say', async () => {
    const out = join(tempDir('audit'), 'out');
    const r = await run('audit', '--server', 'sdk-sse', '--quiet', '--out', out);
    expect(r.code).toBe(1);
    expect(readdirSync(out).sort()).toEqual(['audit.html', 'audit.json', 'audit.junit.xml', 'audit.md']);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      readFileSync(join(out, 'audit.junit.xml'), 'utf8'),
    );
    type Case = { classname: string; name: string; failure?: { type: string }; skipped?: unknown };
    const all = xml.testsuites.testsuite.testcase as Case[];
    const cases = all.filter((c) => c.classname === 'audit');
    const rows = SCENARIOS.length + PROBES.length;
    expect(cases).toHaveLength(rows);
    expect(cases.filter((c) => c.failure).map((c) => [c.name, c.failure!.type])).toEqual([['reinit-live-session', 'loud']]);
    expect(cases.filter((c) => c.skipped !== undefined).map((c) => c.name)).toEqual([
      'progress-after-fallback',
      'strip-protocol-version',
      'cut-reissue-once',
      'get-405',
      'server-discover',
      'mismatch-protocol-version',
      'close-cancels',
      ...SPEC_PROBES,
    ]);
    // Each spec check is a test case of its own (class audit.spec): only the Origin check fails on this server.
    const spec = all.filter((c) => c.classname === 'audit.spec');
    expect(spec.map((c) => c.name)).toContain('unknown-session 2025-11-25/unknown-session-404');
    expect(spec.filter((c) => c.failure).map((c) => c.name)).toEqual(['foreign-origin 2025-11-25/origin-403']);
    expect(xml.testsuites.testsuite).toMatchObject({ tests: String(all.length), failures: '2' });
    const json = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'));
    expect(json.scenarios).toHaveLength(rows);
    expect(json.scenarios[1].spec.checks[0]).toMatchObject({ requirement: '2025-11-25/unknown-session-404', verdict: 'conforms' });
    expect(readFileSync(join(out, 'audit.md'), 'utf8')).toMatch(/\| `reinit-live-session` \| loud \| unspecified \|/);
    // a second run replaces the set whole
    const again = await run('audit', '--server', 'sdk-sse', '--quiet', '--only', 'unknown-session', '--out', out);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')).scenarios).toHaveLength(1);
  });

  it('refuses an --out folder that holds other files, and leaves it as it was', async () => {
    const out = tempDir('audit-other');
    writeFileSync(join(out, 'keep.txt'), 'mine');
    const r = await run('audit', '--server', 'sdk-sse', '--quiet', '--out', out);
    expect(r.code).toBe(2);
    expect(existsSync(join(out, 'keep.txt'))).toBe(true);
  });

  it('--help lists every scenario', async () => {
    const r = await run('audit', '--help');
    expect(r.code).toBe(0);
    for (const s of [...SCENARIOS, ...PROBES]) expect(r.stdout).toContain(s.name);
    expect(r.stdout).toContain('--strict');
  });

  itRejects([
    ['no server', ['audit'], /give one of --server, --serve, --target/],
    ['two servers', ['audit', '--server', 'sdk-sse', '--target', 'http://127.0.0.1:1/mcp'], /give one of/],
    [
      'a client command that cannot run',
      ['audit', '--client-cmd', 'exit 3', '--quiet'],
      /audit --client-cmd: the fault-free reference run fails \(call 0 failed: client process exited \(status 3\)/,
    ],
    ['unknown scenario', ['audit', '--server', 'sdk-sse', '--only', 'nope'], /unknown scenario 'nope'/],
    ['v1 with a protocol', ['audit', '--server', 'sdk-sse,protocol=2026-07-28'], /speaks 2025-11-25 only/],
    ['--revision in-process', ['audit', '--server', 'sdk-sse', '--revision', 'dual'], /--revision needs --serve, --target or --client-cmd/],
    ['bad --revision', ['audit', '--serve', 'true', '--revision', 'x'], /unknown --revision 'x'/],
    ['a target that is not loopback', ['audit', '--target', 'http://example.com/mcp'], /loopback|127\.0\.0\.1/],
  ]);
});
