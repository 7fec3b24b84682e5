// The audit of a client: the shipped harnesses (examples/clients/), each its own process through the
// loopback fault proxy to the model server, on the wall clock. Each harness runs a few scenarios,
// not all (each costs seconds, and CI runs everything twice). Without the Python venv
// (.ci/python-venv.sh) the Python case FAILS with the reason: a skipped language would read as a pass.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { History } from '../../../../sim/core/history.ts';
import { call } from '../../../../sim/core/workload.ts';
import { runClientAudit } from '../../../../sim/audit/client/runner.ts';
import { planOf } from '../../../../sim/audit/client/request-marks.ts';
import { CLIENT_SCENARIOS, NOT_FOR_CLIENTS } from '../../../../sim/audit/client/scenarios.ts';
import { SCENARIOS } from '../../../../sim/audit/scenarios.ts';
import { combination } from '../../../../models/policies.ts';
import { liveGroups } from '../../../../sim/wire/process/process-groups.ts';
import { itRejects, ROOT, run, tempDir } from '../../cli/run.ts';
import { NO_ADDITIONS } from '../../../../models/additions.ts';
import { serversOf } from '../../../../sim/cli/commands/audit-client-revisions.ts';

const PYTHON = join(ROOT, '.venv-mcp/bin/python');
const TS = 'node examples/clients/ts-client.mjs';
const PY = '.venv-mcp/bin/python examples/clients/python_client.py';
const NA = 'not applicable';
const streamingModel = {
  kind: 'model' as const,
  policy: combination({ server: { streaming: 'accept-header' } as never }, NO_ADDITIONS).server,
};
const verdicts = (a: Awaited<ReturnType<typeof runClientAudit>>) => Object.fromEntries(a.scenarios.map((s) => [s.name, s.verdict]));

describe('the client scenarios', () => {
  it('cover every server scenario once: run against a client, or not applicable with a reason', () => {
    const client = CLIENT_SCENARIOS.map((s) => s.name);
    const notFor = Object.keys(NOT_FOR_CLIENTS);
    // get-405 is a client's question only (the model client opens no GET stream).
    expect([...client, ...notFor].sort()).toEqual([...SCENARIOS.map((s) => s.name), 'get-405'].sort());
    expect(client.filter((n) => notFor.includes(n))).toEqual([]);
  });

  it("place each fault on the client's own tools/call of call 0, wherever its GET and tools/list put it", () => {
    const req = (n: number, rpc: string, callId?: number) => ({ t: n, kind: 'request', req: n, method: 'POST', rpc, headers: {}, callId });
    const reference = {
      entries: [req(0, 'initialize'), req(1, 'notifications/initialized'), req(2, 'GET'), req(3, 'tools/call', 0), req(4, 'tools/list')],
    } as unknown as History;
    const cut = CLIENT_SCENARIOS.find((s) => s.name === 'strip-last-event-id')!;
    expect(planOf(cut, reference)).toEqual([
      { fault: 'stream-cut', at: 3 },
      { fault: 'strip-header:last-event-id', at: 4 },
    ]);
    const never = { ...cut, faults: [{ fault: 'http-502' as const, on: { call: 5 } }], workload: [call()] };
    expect(planOf(never, reference)).toEqual({ missing: 'the fault-free run has no tools/call of call 5' });
  });
});

describe('audit of the TypeScript SDK v1 harness', () => {
  it('a 404 makes it start a new session; a cut stream is noticed only when its own timeout fires; the retry recovers', async () => {
    const a = await runClientAudit(streamingModel, {
      command: TS,
      sidesArgs: `--client-cmd '${TS}'`,
      only: ['reinit-live-session', 'unknown-session', 'stream-cut-call'],
    });
    expect(verdicts(a)).toEqual({ 'reinit-live-session': NA, 'unknown-session': 'pass', 'stream-cut-call': 'pass' });
    const by = new Map(a.scenarios.map((s) => [s.name, s]));
    expect(by.get('reinit-live-session')!.why).toMatch(/a question to the server/);
    expect(by.get('unknown-session')!.evidence).toMatch(/session-expire on req \d+ tools\/call → 404 .*call 0 ok .*×2.*HTTP 404/);
    expect(by.get('stream-cut-call')!.why).toMatch(/waited out its own 5 s timeout/);
    expect(by.get('stream-cut-call')!.evidence).toMatch(
      /stream-cut on req \d+ tools\/call → 200 text\/event-stream sse.*Request timed out/,
    );
    expect(by.get('stream-cut-call')!.plan).toMatch(/^stream-cut at request \d+$/);
    // A harness runs on the wall clock: its evidence never calls its times virtual.
    for (const s of a.scenarios.filter((x) => x.verdict !== NA)) {
      expect(s.evidence).toMatch(/\(t: wall-clock ms\)/);
      expect(s.library!.evidence).toMatch(/\(t: wall-clock ms\)$/);
    }
    expect(a.client).toBe(TS);
    expect(liveGroups()).toEqual([]);
  }, 90_000);
});

describe('audit of the Python SDK harness (mcp 2.3.0)', () => {
  it('a 404 makes it start a new session; a cut stream fails loudly at once; the retry recovers', async () => {
    if (!existsSync(PYTHON)) throw new Error(`no Python venv at ${PYTHON}: run .ci/python-venv.sh (mcp==2.3.0)`);
    const a = await runClientAudit(streamingModel, {
      command: PY,
      sidesArgs: `--client-cmd '${PY}'`,
      only: ['unknown-session', 'stream-cut-call'],
    });
    expect(verdicts(a)).toEqual({ 'unknown-session': 'pass', 'stream-cut-call': 'pass' });
    const by = new Map(a.scenarios.map((s) => [s.name, s]));
    // -32001 is also the Python SDK's own request-timeout code: the harness must read this as a gone session.
    expect(by.get('unknown-session')!.evidence).toMatch(/→ 404 .*call 0 ok .*×2.*Session not found/);
    expect(by.get('stream-cut-call')!.why).toBe('every call ok');
    expect(by.get('stream-cut-call')!.evidence).toMatch(/SSE stream ended without a response/);
    expect(liveGroups()).toEqual([]);
  }, 90_000);
});

describe('audit --client-cmd on the command line', () => {
  it('writes the report set; the JUnit file parses, a non-client scenario is a skipped test case', async () => {
    const out = join(tempDir('client-audit'), 'out');
    const r = await run('audit', '--client-cmd', TS, '--only', 'http-502-call,progress-after-fallback', '--out', out, '--quiet');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^audit of client node examples\/clients\/ts-client\.mjs \(against model .*streaming=accept-header/);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(out, 'audit.junit.xml'), 'utf8'));
    const cases = junit.testsuites.testsuite.testcase;
    // A client row names the revision it ran in (a client is audited in every revision it speaks).
    expect(cases.map((c: Record<string, string>) => c['@_name'])).toEqual(['http-502-call 2025-11-25', 'progress-after-fallback']);
    expect(cases[1].skipped['@_message']).toMatch(/model notions/);
    expect(JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')).client).toBe(TS);
    expect(liveGroups()).toEqual([]);
  }, 60_000);

  it('a client audited in two revisions: the header names the server of each, as the reproduce lines do', async () => {
    const SDK2 = 'node examples/clients/sdk2-client.mjs';
    const r = await run('audit', '--client-cmd', SDK2, '--only', 'http-502-call', '--quiet');
    const head = r.stdout.split('\n')[0]!;
    // Without --revision the manifest's two revisions run, each against the model in that revision.
    expect(head).toMatch(
      /^audit of client node examples\/clients\/sdk2-client\.mjs \(against model .*protocol=2025-11-25.* in 2025-11-25, model .*protocol=2026-07-28.* in 2026-07-28\)/,
    );
    expect(head).toMatch(/speaks 2025-11-25, 2026-07-28/);
    expect(liveGroups()).toEqual([]);
  }, 90_000);

  it('names one server once when every revision ran against it', () => {
    const one = { server: 'sdk2-sse protocol=2025-11-25', asked: '2025-11-25' as const };
    expect(serversOf([one])).toBe('sdk2-sse protocol=2025-11-25');
    expect(serversOf([one, { ...one, asked: '2026-07-28' }])).toBe('sdk2-sse protocol=2025-11-25');
    expect(serversOf([one, { server: 'b', asked: '2026-07-28' }])).toBe('sdk2-sse protocol=2025-11-25 in 2025-11-25, b in 2026-07-28');
  });

  it('a client that never answers ends by the watchdog (exit 4, its own outcome), never a pass, and leaves no process', async () => {
    const r = await run('audit', '--client-cmd', 'cat > /dev/null', '--watchdog', '1', '--only', 'http-502-call', '--quiet');
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^outcome watchdog: run 1 did not finish within 1 s of wall-clock time/m);
    expect(r.stdout).not.toMatch(/pass/);
    expect(liveGroups()).toEqual([]);
  }, 30_000);

  itRejects([
    ['an empty client command', ['audit', '--client-cmd', ' '], /--client-cmd needs a command/],
    ['a revision no harness speaks', ['audit', '--client-cmd', TS, '--revision', 'dual'], /unknown --revision 'dual' for a client/],
    ['two servers', ['audit', '--client-cmd', TS, '--server', 'sdk-sse', '--target', 'http://127.0.0.1:1/mcp'], /give one of --server/],
  ]);
});
