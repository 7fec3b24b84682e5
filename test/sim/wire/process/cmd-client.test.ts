// Clients of any language: the Python SDK client and the official TypeScript client, each a separate
// process behind the JSON-lines protocol (examples/clients/), through the loopback fault proxy to the
// model server, on the wall clock. Without the Python venv (.ci/python-venv.sh) the Python cases FAIL
// with the reason: a skipped second language would read as a passing one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { History } from '../../../../sim/core/history.ts';
import { call } from '../../../../sim/core/workload.ts';
import { combination } from '../../../../models/policies.ts';
import { CMD_CLIENT_TIMEOUT_MS } from '../../../../sim/wire/process/cmd-client.ts';
import { liveGroups } from '../../../../sim/wire/process/process-groups.ts';
import { runWire } from '../../../../sim/wire/world.ts';
import { ROOT, run } from '../../cli/run.ts';
import { NO_ADDITIONS } from '../../../../models/additions.ts';

const PYTHON = join(ROOT, '.venv-mcp/bin/python');
const HARNESSES = {
  python: '.venv-mcp/bin/python examples/clients/python_client.py',
  ts: 'node examples/clients/ts-client.mjs',
} as const;

function needs(name: keyof typeof HARNESSES): void {
  if (name === 'python' && !existsSync(PYTHON)) throw new Error(`no Python venv at ${PYTHON}: run .ci/python-venv.sh (mcp==2.3.0)`);
}

const model = { kind: 'model' as const, policy: combination({}, NO_ADDITIONS).server };

async function runWith(name: keyof typeof HARNESSES, plan: { fault: string; at: number }[]): Promise<History> {
  needs(name);
  return runWire({ client: { kind: 'cmd', command: HARNESSES[name] }, server: model }, { workload: [call(), call()], plan: plan as never });
}

const ends = (h: History) => h.entries.filter((e) => e.kind === 'end') as Extract<History['entries'][number], { kind: 'end' }>[];

describe.each(Object.keys(HARNESSES) as (keyof typeof HARNESSES)[])('the %s harness through the proxy', (name) => {
  it('runs the workload to results, its requests tied to the calls, and leaves no process', async () => {
    const h = await runWith(name, []);
    expect(ends(h).map((e) => [e.callId, e.end, e.attempts])).toEqual([
      [0, 'result', 1],
      [1, 'result', 1],
    ]);
    const calls = h.entries.filter((e) => e.kind === 'request' && e.rpc === 'tools/call');
    expect(calls.map((e) => (e as { callId?: number }).callId)).toEqual([0, 1]);
    expect(liveGroups()).toEqual([]);
  }, 60_000);

  it('a 502 on the first tools/call is seen by the harness and the retry recovers', async () => {
    const clean = await runWith(name, []);
    const at = (clean.entries.find((e) => e.kind === 'request' && e.rpc === 'tools/call') as { req: number }).req;
    const h = await runWith(name, [{ fault: 'http-502', at }]);
    expect(h.entries.some((e) => e.kind === 'fault' && e.fault === 'http-502' && e.applied)).toBe(true);
    expect(h.entries).toContainEqual(expect.objectContaining({ kind: 'response', req: at, status: 502, from: 'load-balancer' }));
    expect(h.entries).toContainEqual(expect.objectContaining({ kind: 'client', note: 'attempt-failed', callId: 0, attempt: 1 }));
    expect(ends(h).map((e) => [e.callId, e.end, e.attempts])).toEqual([
      [0, 'result', 2],
      [1, 'result', 1],
    ]);
  }, 60_000);
});

// A tools/call answered on an SSE stream (streaming=accept-header) that the proxy cuts before its
// result (no event id, so nothing to resume from): the two clients differ, and this pins how.
describe('a cut tools/call stream', () => {
  const streaming = {
    kind: 'model' as const,
    policy: combination({ server: { streaming: 'accept-header' } as never }, NO_ADDITIONS).server,
  };
  async function cut(name: keyof typeof HARNESSES): Promise<History> {
    needs(name);
    const setup = { client: { kind: 'cmd' as const, command: HARNESSES[name] }, server: streaming };
    const clean = await runWire(setup, { workload: [call(), call()], plan: [] });
    const at = (clean.entries.find((e) => e.kind === 'request' && e.rpc === 'tools/call') as { req: number }).req;
    const h = await runWire(setup, { workload: [call(), call()], plan: [{ fault: 'stream-cut', at }] as never });
    expect(h.entries).toContainEqual(expect.objectContaining({ kind: 'fault', fault: 'stream-cut', at, applied: true }));
    expect(ends(h).map((e) => [e.callId, e.end, e.attempts])).toEqual([
      [0, 'result', 2],
      [1, 'result', 1],
    ]);
    return h;
  }
  const failed = (h: History) => h.entries.find((e) => e.kind === 'client' && e.note === 'attempt-failed') as { t: number; reason: string };
  const cutAt = (h: History) => h.entries.find((e) => e.kind === 'fault' && e.fault === 'stream-cut')!.t;

  it('the Python SDK client fails the call loudly at once, and the retry recovers', async () => {
    const h = await cut('python');
    expect(failed(h).reason).toMatch(/SSE stream ended without a response/);
    expect(failed(h).t - cutAt(h)).toBeLessThan(2000);
  }, 60_000);

  it('the TypeScript SDK v1 client waits silently for its own request timeout, then the retry recovers', async () => {
    const h = await cut('ts');
    expect(failed(h).reason).toMatch(/Request timed out/);
    expect(failed(h).t - cutAt(h)).toBeGreaterThanOrEqual(CMD_CLIENT_TIMEOUT_MS - 100);
  }, 60_000);
});

it('check --wire --client-cmd runs the TypeScript harness and reports its verdicts', async () => {
  const r = await run('check', '--wire', '--client-cmd', HARNESSES.ts, '--faults', 'http-502', '--runs', '2', '--json', '--quiet');
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.wire.client).toBe(`cmd ${HARNESSES.ts}`);
  expect(report.results.find((x: { property: string }) => x.property === 'no-silent-hang').verdict).toBe('holds');
}, 120_000);
