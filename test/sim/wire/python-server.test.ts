// A second language: the Python MCP SDK (PyPI `mcp` 2.3.0) serving the faultsim tool set
// (examples/servers/faultsim_server.py) on loopback, started by the tool (`--serve`), driven by the
// SDK v2 client in both revisions it serves, and by `check --wire --serve` as a user runs it.
// The Python side comes from .ci/python-venv.sh (a venv at .venv-mcp/). Without it this suite
// FAILS, saying why: a skipped second language would read as a passing one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOutcomes, referenceOf } from '../../../properties/outcomes.ts';
import type { History } from '../../../sim/core/history.ts';
import { call } from '../../../sim/core/workload.ts';
import { FAULTSIM_TOOLS } from '../../../sim/wire/protocol/tool-maps.ts';
import { ServedProcess, servedEndpoint } from '../../../sim/wire/process/loopback.ts';
import type { WireClientSpec, WireSetup } from '../../../sim/wire/setup.ts';
import { runWire } from '../../../sim/wire/world.ts';
import { run } from '../cli/run.ts';
import { PYTHON_SERVER, pythonMissing as missing } from '../../fixtures/servers.ts';

let served: ServedProcess | undefined;
let why: string | null = null;
beforeAll(async () => {
  why = missing();
  if (!why) served = await ServedProcess.start(PYTHON_SERVER);
}, 60_000);
afterAll(async () => served?.stop());

/** Every test fails (none skips) with the reason when the Python side is not there. */
function server(): ServedProcess {
  if (!served) throw new Error(`Python MCP server cannot start: ${why ?? 'it did not start'}`);
  return served;
}

const LEGACY: WireClientSpec = { kind: 'sdk2', protocol: '2025-11-25' };
const MODERN: WireClientSpec = { kind: 'sdk2', protocol: '2026-07-28' };
const setup = (client: WireClientSpec): WireSetup => ({
  client,
  server: { kind: 'loopback', endpoint: servedEndpoint(server(), FAULTSIM_TOOLS) },
});
const ends = (h: History) => h.entries.filter((e) => e.kind === 'end');
async function outcomes(client: WireClientSpec, plan: History['plan'], workload = [call(), call(true)]) {
  const reference = referenceOf(await runWire(setup(client), { workload, plan: [] }));
  const h = await runWire(setup(client), { workload, plan });
  return { h, outcomes: callOutcomes(h, reference).map((o) => o.outcome) };
}

describe('the Python MCP server (mcp 2.3.0) on loopback', () => {
  it('answers work and progress with content in both revisions, on one endpoint', async () => {
    for (const [client, first] of [
      [LEGACY, 'initialize'],
      [MODERN, 'server/discover'],
    ] as const) {
      const h = await runWire(setup(client), { workload: [call(), call(true)], plan: [] });
      expect(ends(h).map((e) => e.kind === 'end' && e.end === 'result' && e.content[0]!.text)).toEqual([
        'work result for call 0',
        'progress result for call 1',
      ]);
      expect(h.entries.find((e) => e.kind === 'request')).toMatchObject({ rpc: first });
    }
  }, 60_000);

  it('2026-07-28: a call without progress is one JSON body, a call with progress an SSE stream', async () => {
    const h = await runWire(setup(MODERN), { workload: [call(), call(true)], plan: [] });
    const types = h.entries.flatMap((e) => (e.kind === 'response' ? [e.contentType] : []));
    expect(types.slice(1)).toEqual(['application/json', 'text/event-stream']);
  }, 60_000);

  it('no event store (the SDK default): both attempts of a call cut is silent-hang, in both revisions', async () => {
    // 2025-11-25: requests 0-2 are the handshake and the GET stream; 3 is call 0 (SSE), 5 its retry.
    const legacy = await outcomes(
      LEGACY,
      [
        { fault: 'stream-cut', at: 3 },
        { fault: 'stream-cut', at: 5 },
      ],
      [call()],
    );
    expect(legacy.outcomes).toEqual(['silent-hang']);
    // 2026-07-28: request 2 is the progress call (the only SSE answer), 3 its re-issue.
    const modern = await outcomes(MODERN, [
      { fault: 'stream-cut', at: 2 },
      { fault: 'stream-cut', at: 3 },
    ]);
    expect(modern.outcomes).toEqual(['ok', 'silent-hang']);
    for (const r of [legacy, modern]) expect(ends(r.h).at(-1)).toMatchObject({ end: 'deadline', answer: 'lost', serverFinished: true });
  }, 60_000);

  it('2026-07-28: a stripped MCP-Protocol-Version is refused (400) and the call heals', async () => {
    const r = await outcomes(MODERN, [{ fault: 'strip-header:mcp-protocol-version', at: 1 }]);
    expect(r.outcomes).toEqual(['ok', 'ok']);
    expect(r.h.entries.find((e) => e.kind === 'response' && e.req === 1)).toMatchObject({ status: 400 });
  }, 60_000);
});

describe('check --wire --serve with the Python server', () => {
  for (const client of ['sdk2', 'sdk2,protocol=2026-07-28']) {
    it(`--client ${client}: runs the plans against it and reports the served side`, async () => {
      server();
      const r = await run(
        'check',
        '--wire',
        '--client',
        client,
        '--serve',
        PYTHON_SERVER,
        '--tools',
        'faultsim',
        '--faults',
        'http-502,stream-cut',
        '--runs',
        '8',
        '--quiet',
        '--json',
      );
      expect(r.code, r.stderr).toBeLessThan(2);
      const out = JSON.parse(r.stdout);
      expect(out.wire.server).toBe(`serve ${PYTHON_SERVER}`);
      expect(out.results[0].outcomes.ok).toBeGreaterThan(0);
      expect(out.stats.faultsApplied['http-502']).toBeGreaterThan(0);
    }, 120_000);
  }
});
