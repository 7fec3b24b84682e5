// The transport probes (issue 37 item 6), each against a loopback fixture that keeps its requirement
// and one that breaks it (test/fixtures/servers/transport-fixture.mjs, a hand-written 2025-11-25
// server started here on 127.0.0.1, `--violate` naming what it breaks): conforms, then violates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../../../sim/audit/server/runner.ts';
import { ServedProcess, targetEndpoint } from '../../../../sim/wire/process/loopback.ts';
import type { ToolMap } from '../../../../sim/wire/protocol/tool-maps.ts';

const FIXTURE = 'node test/fixtures/servers/transport-fixture.mjs --port {port}';
/** `echo` without arguments answers `call <n>`: the calls of a workload are told apart by their answers. */
const TOOLS: ToolMap = { plain: { name: 'echo', args: () => ({}) }, progress: { name: 'echo', args: () => ({}) } };

const served: ServedProcess[] = [];
let keeps: ServedProcess;
let breaks: ServedProcess;

beforeAll(async () => {
  keeps = await ServedProcess.start(FIXTURE, { spare: false });
  breaks = await ServedProcess.start(`${FIXTURE} --violate origin,version,session,accepted,ids`, { spare: false });
  served.push(keeps, breaks);
}, 60_000);
afterAll(async () => {
  for (const s of served) await s.stop();
});

async function probe(server: ServedProcess, name: string, headers: Record<string, string> = {}) {
  const endpoint = await targetEndpoint(server.url, TOOLS, null, { headers, remote: false });
  const a = await runAudit({ kind: 'loopback', endpoint }, { serverArgs: '--target x', only: [name], loopbackRevisions: ['2025-11-25'] });
  const row = a.scenarios.find((s) => s.name === name)!;
  return { row, checks: row.spec!.checks };
}

describe('the transport probes, each against a fixture that keeps and one that breaks its requirement', () => {
  const cases: [string, string, RegExp, RegExp][] = [
    ['invalid-protocol-version', '2025-11-25/invalid-protocol-version-400', /1999-01-01: HTTP 400/, /1999-01-01: HTTP 200/],
    ['foreign-origin', '2025-11-25/origin-403', /evil\.example\.com: HTTP 403/, /a foreign Origin was not refused with 403/],
    [
      'post-notification-202',
      '2025-11-25/accepted-202-empty',
      /202, no body/,
      /HTTP 200 application\/json with a body of \d+ bytes, not 202/,
    ],
    ['delete-then-request', '2025-11-25/unknown-session-404', /a ping on it after: HTTP 404/, /a ping on it after: HTTP 400 .*not 404/],
    ['made-up-session', '2025-11-25/unknown-session-404', /never issued: HTTP 404/, /never issued: HTTP 400 .*not 404/],
    [
      'id-reused-in-flight',
      '2025-11-25/own-answer-per-request',
      /no caller got the other's answer/,
      /a caller got the other call's answer/,
    ],
  ];
  for (const [name, requirement, kept, broken] of cases)
    it(`${name}: ${requirement} conforms, then violates`, async () => {
      const good = await probe(keeps, name);
      expect(good.checks.map((c) => [c.requirement, c.verdict])).toEqual([[requirement, 'conforms']]);
      expect(good.checks[0]!.evidence).toMatch(kept);
      const bad = await probe(breaks, name);
      expect(bad.checks.map((c) => [c.requirement, c.verdict])).toEqual([[requirement, 'violates']]);
      expect(bad.checks[0]!.evidence).toMatch(broken);
    }, 60_000);

  it('id-reused-in-flight: a crossed answer is silent; message-schema conforms on the well-formed fixture', async () => {
    expect((await probe(breaks, 'id-reused-in-flight')).row.verdict).toBe('silent');
    const schema = await probe(keeps, 'message-schema');
    expect(schema.checks.map((c) => c.verdict)).toEqual(['conforms']);
    expect(schema.checks[0]!.evidence).toMatch(/valid against @modelcontextprotocol\/sdk 1\.32\.2/);
    const malformed = await ServedProcess.start(`${FIXTURE} --violate schema`, { spare: false });
    served.push(malformed);
    const bad = await probe(malformed, 'message-schema');
    expect(bad.checks.map((c) => c.verdict)).toEqual(['violates']);
    expect(bad.checks[0]!.evidence).toMatch(/tools\/call → result\.content\[0\]\.text: .*expected string, received number/);
  }, 60_000);

  it('auth-401-challenge: with a token, 401 and a Bearer challenge conforms; a bare 401 violates; no credentials: not tested, with the flag', async () => {
    const token = { authorization: 'Bearer fixture-token' };
    const guarded = await ServedProcess.start(`${FIXTURE} --token fixture-token`, { spare: false });
    const bare = await ServedProcess.start(`${FIXTURE} --token fixture-token --violate challenge`, { spare: false });
    served.push(guarded, bare);
    const good = await probe(guarded, 'auth-401-challenge', token);
    expect(good.checks.map((c) => [c.requirement, c.verdict])).toEqual([['2025-11-25/auth-401-challenge', 'conforms']]);
    expect(good.checks[0]!.evidence).toMatch(
      /without credentials: HTTP 401 WWW-Authenticate: Bearer …; with a made-up bearer token: HTTP 401 WWW-Authenticate: Bearer/,
    );
    expect(good.checks[0]!.evidence).not.toMatch(/fixture-token/);
    const bad = await probe(bare, 'auth-401-challenge', token);
    expect(bad.checks.map((c) => c.verdict)).toEqual(['violates']);
    expect(bad.checks[0]!.evidence).toMatch(/HTTP 401, no WWW-Authenticate/);
    const open = await probe(keeps, 'auth-401-challenge');
    expect(open.checks.map((c) => c.verdict)).toEqual(['not tested']);
    expect(open.checks[0]!.evidence).toMatch(/--header-env Authorization=VAR/);
  }, 60_000);
});
