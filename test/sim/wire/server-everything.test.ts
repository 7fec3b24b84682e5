// A real server over loopback: @modelcontextprotocol/server-everything, started by the tool on a
// free port (--serve), under a short plan set, with the SDK client and with the model client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combination } from '../../../models/policies.ts';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import type { History } from '../../../sim/core/history.ts';
import { ServedProcess, servedEndpoint } from '../../../sim/wire/process/loopback.ts';
import { runWire } from '../../../sim/wire/world.ts';
import type { WireClientSpec, WireSetup } from '../../../sim/wire/setup.ts';
import { call } from '../../../sim/core/workload.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const EVERYTHING = 'node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp';
let served: ServedProcess;
beforeAll(async () => void (served = await ServedProcess.start(EVERYTHING)), 30_000);
afterAll(async () => served?.stop());

const SDK: WireClientSpec = { kind: 'sdk' };
const MODEL: WireClientSpec = { kind: 'model', policy: combination({ client: { parser: 'adaptive' } }, NO_ADDITIONS).client };
const setup = (client: WireClientSpec): WireSetup => ({ client, server: { kind: 'loopback', endpoint: servedEndpoint(served) } });
async function run(client: WireClientSpec, plan: History['plan'], workload = [call(), call(true)]) {
  const reference = referenceOf(await runWire(setup(client), { workload, plan: [] }));
  const h = await runWire(setup(client), { workload, plan });
  return { h, outcomes: callOutcomes(h, reference).map((o) => o.outcome) };
}

describe('server-everything on loopback', () => {
  it('answers echo and the long-running operation (progress) with content, to both clients', async () => {
    for (const client of [SDK, MODEL]) {
      const h = await runWire(setup(client), { workload: [call(), call(true)], plan: [] });
      const texts = h.entries.flatMap((e) => (e.kind === 'end' && e.end === 'result' ? [e.content[0]!.text] : []));
      expect(texts).toEqual(['Echo: call 0', 'Long running operation completed. Duration: 0.05 seconds, Steps: 2.']);
    }
  });

  it('session-expire acts at the proxy: the session id it forgot reaches the server as one never issued, answered 400', async () => {
    const r = await run(SDK, [{ fault: 'session-expire', at: 3 }]);
    expect(r.h.entries.find((e) => e.kind === 'fault')).toMatchObject({ applied: true, fault: 'session-expire' });
    expect(r.h.entries.find((e) => e.kind === 'response' && e.req === 3)).toMatchObject({ status: 400, rpcError: -32000 });
    // The SDK v1 client keeps its session id after the 400 (no 404, no new session): every call from there fails.
    expect(r.outcomes).toEqual(['error', 'error']);
  });

  it('a cut stream is resumed by the SDK client with Last-Event-ID (the server keeps an event store)', async () => {
    const r = await run(SDK, [{ fault: 'stream-cut', at: 3 }]);
    expect(r.outcomes).toEqual(['ok', 'ok']);
    expect(r.h.entries.some((e) => e.kind === 'request' && e.rpc === 'resume')).toBe(true);
  });

  it('after a restart it answers the old session id with 400, not 404, so no client opens a new session: loud, no recovery', async () => {
    for (const client of [SDK, MODEL]) {
      const r = await run(client, [{ fault: 'server-restart', at: 3 }], [call(), call(), call()]);
      expect(r.outcomes.slice(1)).toEqual(['error', 'error']);
      expect(r.h.entries.some((e) => e.kind === 'response' && e.status === 400)).toBe(true);
      expect(r.h.entries.some((e) => e.kind === 'response' && e.status === 404)).toBe(false);
    }
  }, 30_000);
});
