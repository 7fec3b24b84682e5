// The session probes (sim/audit/server/session-probes.ts) on the Python SDK's server with and without
// sessions (examples/servers/faultsim_server.py, `--stateless`: checked by hand, its initialize
// answers with no Mcp-Session-Id and a DELETE gets 405). Where the server issues no session, a probe
// of a session's end has nothing to act on: `not tested`, with why, never `conforms`. The id probe
// still judges each answer's id, and says the calls were of no session. Needs the project's Python
// venv (.ci/python-venv.sh): fails, never skips, without it.
import { describe, expect, it } from 'vitest';
import { auditJson } from '../../../fixtures/audit-cli.ts';
import { PYTHON_SERVER, pythonMissing } from '../../../fixtures/servers.ts';

type Check = { requirement: string; verdict: string; evidence: string };
type Audit = { scenarios: { name: string; spec?: { checks: Check[] } }[] };

const PROBES = 'delete-then-request,made-up-session,id-reused-in-flight';

async function checks(serve: string): Promise<Record<string, Check>> {
  const a = await auditJson<Audit>('--serve', serve, '--tools', 'faultsim', '--only', PROBES);
  return Object.fromEntries(a.scenarios.map((s) => [s.name, s.spec!.checks[0]!]));
}

describe('the session probes with and without sessions (the Python SDK server)', () => {
  it('with sessions: each probe acts on the session and conforms', async () => {
    expect(pythonMissing()).toBeNull();
    const c = await checks(PYTHON_SERVER);
    expect(c['delete-then-request']).toMatchObject({
      verdict: 'conforms',
      evidence: expect.stringMatching(/a ping on it after: HTTP 404/),
    });
    expect(c['made-up-session']).toMatchObject({ verdict: 'conforms', evidence: expect.stringMatching(/never issued: HTTP 404/) });
    expect(c['id-reused-in-flight']).toMatchObject({ verdict: 'conforms', evidence: expect.stringMatching(/^one session, /) });
  }, 90_000);

  it('stateless: the session probes are not tested, with why; the id probe judges two requests of no session', async () => {
    expect(pythonMissing()).toBeNull();
    const c = await checks(`${PYTHON_SERVER} --stateless`);
    expect(c['delete-then-request']).toMatchObject({
      requirement: '2025-11-25/unknown-session-404',
      verdict: 'not tested',
      evidence: 'the server issued no session id: there is no session to delete',
    });
    expect(c['made-up-session']).toMatchObject({
      verdict: 'not tested',
      evidence: expect.stringMatching(/^the server issued no session id \(stateless\)/),
    });
    const id = c['id-reused-in-flight']!;
    expect(id.verdict).toBe('conforms');
    // Both calls reached the server and were answered: the verdict reads two answers, not a timeout.
    expect(id.evidence).toMatch(
      /^no session \(the server issued no session id\), .*caller 1 HTTP 200 .*caller 2 HTTP 200 .*no caller got the other's answer$/,
    );
    expect(id.evidence).not.toMatch(/one session|MUST NOT/);
  }, 90_000);
});
