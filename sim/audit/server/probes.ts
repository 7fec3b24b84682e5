// The audit's probe scenarios: questions a fault plan cannot ask, because the model client never
// sends the request (a GET on the endpoint, server/discover, a mismatched MCP-Protocol-Version) or
// because it takes two clients at once (two callers, one JSON-RPC id: two-callers.ts), or because it
// closes a response stream on purpose and then looks at what the tool left behind (close-cancels.ts).
// Each asks the server directly (probe-client.ts), judges the requirements it observes (spec lens),
// and gives a resilience verdict only where the agent would live with the outcome (two callers: a
// wrong answer is silent). This file holds the one-request probes, the list of every probe, and how a
// probe becomes a row; the transport probes are in transport-probes.ts and session-probes.ts.
import type { Revision } from '../../../models/policies.ts';
import type { SpecCheck } from '../../core/audit-verdict.ts';
import { specVerdictOf } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { describeAnswer, MODERN, modernMeta } from './probe-client.ts';
import { specOnly, withClient, type ProbeOutcome } from './probe-kit.ts';
import { checkOf } from './spec-lens.ts';
import type { ToolChoice } from './tool-choice.ts';
import type { ScenarioResult } from '../audit-row.ts';
import { TRANSPORT_PROBES } from './transport-probes.ts';
import { AUTH_PROBE } from './auth-probe.ts';
import { twoCallersOneId } from './two-callers.ts';
import { closeCancels } from './close-cancels.ts';

export interface Probe {
  name: string;
  asks: string;
  revisions: readonly Revision[];
  run(server: WireServerSpec, revisions: readonly Revision[], tools?: ToolChoice): Promise<ProbeOutcome>;
}

const LEGACY = '2025-11-25';

async function get405(server: WireServerSpec, revisions: readonly Revision[]): Promise<ProbeOutcome> {
  const checks: SpecCheck[] = [];
  if (revisions.includes(LEGACY))
    checks.push(
      await withClient(server, async (c) => {
        const s = await c.openSession();
        if (!s) return checkOf('2025-11-25/get-sse-or-405', { verdict: 'not tested', evidence: 'initialize was refused' });
        const a = await c.send('GET', { ...c.legacyHeaders(s.sessionId, s.version), accept: 'text/event-stream' });
        const what = `GET on the endpoint in a live session: ${describeAnswer(a)}`;
        const sse = (a.contentType ?? '').startsWith('text/event-stream');
        return checkOf('2025-11-25/get-sse-or-405', {
          verdict: a.status === 405 || (a.status === 200 && sse) ? 'conforms' : 'violates',
          evidence: a.status === 405 ? `${what} (no standalone stream offered)` : sse ? `${what} (a standalone stream)` : what,
        });
      }),
    );
  // The 2026-07-28 SHOULD binds a server of that revision only (a dual server serves a legacy GET).
  if (revisions.length === 1 && revisions[0] === MODERN)
    checks.push(
      await withClient(server, async (c) => {
        const a = await c.send('GET', { accept: 'text/event-stream', 'mcp-protocol-version': MODERN });
        return checkOf('2026-07-28/get-405', {
          verdict: a.status === 405 ? 'conforms' : 'violates',
          evidence: `GET on the endpoint: ${describeAnswer(a)}`,
        });
      }),
    );
  return specOnly(checks);
}

async function serverDiscover(server: WireServerSpec): Promise<ProbeOutcome> {
  const check = await withClient(server, async (c) => {
    const a = await c.discover();
    const versions = a.message?.result?.supportedVersions;
    const what = `server/discover: ${describeAnswer(a)}`;
    return Array.isArray(versions)
      ? checkOf('2026-07-28/server-discover', { verdict: 'conforms', evidence: `${what}, supportedVersions ${versions.join(', ')}` })
      : checkOf('2026-07-28/server-discover', { verdict: 'violates', evidence: `${what}: no result listing supportedVersions` });
  });
  return specOnly([check]);
}

async function mismatchProtocolVersion(server: WireServerSpec): Promise<ProbeOutcome> {
  const check = await withClient(server, async (c) => {
    // The body says 2026-07-28; the header, as a proxy might rewrite it, says 2025-11-25.
    const a = await c.send(
      'POST',
      { ...c.modernHeaders('tools/list'), 'mcp-protocol-version': LEGACY },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } },
    );
    const what = `tools/list with _meta ${MODERN} and MCP-Protocol-Version ${LEGACY}: ${describeAnswer(a)}`;
    if (a.status === 400 && a.message?.error?.code === -32020)
      return checkOf('2026-07-28/protocol-version-mismatch-400', { verdict: 'conforms', evidence: what });
    return checkOf('2026-07-28/protocol-version-mismatch-400', {
      verdict: 'violates',
      evidence: `${what}: not 400 with -32020 HeaderMismatch`,
    });
  });
  return specOnly([check]);
}

export const PROBES: readonly Probe[] = [
  {
    name: 'get-405',
    asks: 'a GET on the endpoint gets an SSE stream or 405 (2025-11-25); 405 from a server of 2026-07-28 only',
    revisions: ['2025-11-25', '2026-07-28'],
    run: get405,
  },
  {
    name: 'server-discover',
    asks: 'server/discover is answered with the revisions the server speaks (2026-07-28: servers MUST implement it)',
    revisions: ['2026-07-28'],
    run: serverDiscover,
  },
  {
    name: 'mismatch-protocol-version',
    asks: 'a request whose MCP-Protocol-Version does not match its _meta is refused: 400, JSON-RPC -32020',
    revisions: ['2026-07-28'],
    run: mismatchProtocolVersion,
  },
  {
    name: 'two-callers-one-id',
    asks: 'two callers with a tools/call in flight under the same JSON-RPC id each get their own answer, never the other’s',
    revisions: ['2025-11-25', '2026-07-28'],
    run: twoCallersOneId,
  },
  {
    name: 'close-cancels',
    asks: 'a tools/call whose response stream the client closed is cancelled: its work does not land (2026-07-28, with --slow-call)',
    revisions: ['2026-07-28'],
    run: closeCancels,
  },
  ...TRANSPORT_PROBES,
  AUTH_PROBE,
];

export async function runProbe(
  p: Probe,
  server: WireServerSpec,
  revisions: readonly Revision[],
  serverArgs: string,
  tools?: ToolChoice,
): Promise<ScenarioResult> {
  const base = {
    name: p.name,
    asks: p.asks,
    plan: '(no faults: a probe)',
    judgedBy: ['the spec lens'],
    reproduce: { audit: `mcp-faultsim audit ${serverArgs} --only ${p.name}`, check: '' },
  };
  if (!p.revisions.some((r) => revisions.includes(r))) {
    const why = `the server speaks ${revisions.join(', ')}; the probe is for ${p.revisions.join(', ')}`;
    return { ...base, verdict: 'not applicable', why, evidence: why, spec: { verdict: 'not tested', checks: [] } };
  }
  const out = await p.run(server, revisions, tools);
  return {
    ...base,
    verdict: out.verdict,
    why: out.why,
    evidence: out.evidence,
    spec: { verdict: specVerdictOf(out.checks), checks: out.checks },
  };
}
