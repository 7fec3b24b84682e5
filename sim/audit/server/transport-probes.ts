// The transport probes of issue 37 item 6: one raw request each (or two), a requirement of the
// Streamable HTTP transport judged from the answer. A 2025-11-25 MCP-Protocol-Version that is
// unsupported or no version gets 400; a foreign Origin gets 403; a POSTed notification (or response)
// the server accepts gets 202 with no body; and every message the probe clients received follows the
// revision's schema. The session probes (session-probes.ts) join them in TRANSPORT_PROBES. Each is
// spec-only: the spec lens judges it.
import type { Revision } from '../../../models/policies.ts';
import type { SpecCheck } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { describeAnswer, MODERN, modernMeta, type ProbeAnswer } from './probe-client.ts';
import { schemaSource } from './message-schema.ts';
import { checkOf } from './spec-lens.ts';
import { specOnly, withClient, type TransportProbe } from './probe-kit.ts';
import { SESSION_PROBES } from './session-probes.ts';

const LEGACY = '2025-11-25';
const FOREIGN = 'http://evil.example.com';

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const noBody = (a: ProbeAnswer) => a.body === '';

async function invalidProtocolVersion(server: WireServerSpec) {
  const id = '2025-11-25/invalid-protocol-version-400';
  const check = await withClient(server, async (c) => {
    const s = await c.openSession();
    if (!s) return checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' });
    const control = await c.send('POST', c.legacyHeaders(s.sessionId, s.version), ping(1));
    const sent = ['1999-01-01', 'not-a-version'];
    const answers: ProbeAnswer[] = [];
    for (const v of sent)
      answers.push(await c.send('POST', { ...c.legacyHeaders(s.sessionId, s.version), 'mcp-protocol-version': v }, ping(2)));
    const what = sent.map((v, i) => `ping with MCP-Protocol-Version ${v}: ${describeAnswer(answers[i]!)}`).join('; ');
    if (control.status >= 400)
      return checkOf(id, {
        verdict: 'not tested',
        evidence: `a ping with the negotiated version was refused too (${describeAnswer(control)})`,
      });
    return answers.every((a) => a.status === 400)
      ? checkOf(id, { verdict: 'conforms', evidence: what })
      : checkOf(id, { verdict: 'violates', evidence: `${what}: not 400 (the negotiated ${s.version}: ${describeAnswer(control)})` });
  });
  return specOnly([check]);
}

async function foreignOrigin(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  for (const revision of revisions) {
    const id = `${revision}/origin-403`;
    checks.push(
      await withClient(server, async (c) => {
        const own = new URL(c.url).origin;
        const ask = (origin: string) =>
          revision === MODERN
            ? c.send(
                'POST',
                { ...c.modernHeaders('server/discover'), origin },
                { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } },
              )
            : c.send('POST', { accept: c.legacyHeaders(null).accept!, origin }, c.initializeBody());
        const foreign = await ask(FOREIGN);
        const control = await ask(own);
        const what = `${revision === MODERN ? 'server/discover' : 'initialize'} with Origin ${FOREIGN}: ${describeAnswer(foreign)}; with Origin ${own}: ${describeAnswer(control)}`;
        if (control.status === 403) return checkOf(id, { verdict: 'not tested', evidence: `${what}: its own origin is refused too` });
        return foreign.status === 403
          ? checkOf(id, { verdict: 'conforms', evidence: what })
          : checkOf(id, { verdict: 'violates', evidence: `${what}: a foreign Origin was not refused with 403` });
      }),
    );
  }
  return specOnly(checks);
}

async function postNotification(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  const judge = (id: string, what: string, a: ProbeAnswer) =>
    a.status === 202 && noBody(a)
      ? checkOf(id, { verdict: 'conforms', evidence: `${what}: 202, no body` })
      : a.status >= 400
        ? checkOf(id, {
            verdict: 'conforms',
            evidence: `${what}: ${describeAnswer(a)} (not accepted: an error status, as the spec allows)`,
          })
        : checkOf(id, {
            verdict: 'violates',
            evidence: `${what}: ${describeAnswer(a)}${a.body ? ` with a body of ${a.body.length} bytes` : ''}, not 202 with no body`,
          });
  if (revisions.includes(LEGACY))
    checks.push(
      await withClient(server, async (c) => {
        const id = '2025-11-25/accepted-202-empty';
        const s = await c.openSession();
        if (!s) return checkOf(id, { verdict: 'not tested', evidence: 'initialize was refused' });
        const headers = c.legacyHeaders(s.sessionId, s.version);
        const n = await c.send('POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
        const first = judge(id, 'notifications/initialized POSTed', n);
        if (first.verdict === 'violates') return first;
        const r = await c.send('POST', headers, { jsonrpc: '2.0', id: 'faultsim-unsolicited-1', result: {} });
        const second = judge(id, 'a JSON-RPC response POSTed', r);
        return second.verdict === 'violates' ? second : { ...second, evidence: `${first.evidence}; ${second.evidence}` };
      }),
    );
  if (revisions.includes(MODERN))
    checks.push(
      await withClient(server, async (c) => {
        const a = await c.send('POST', c.modernHeaders('notifications/cancelled'), {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'faultsim-none', _meta: modernMeta() },
        });
        return judge('2026-07-28/accepted-202-empty', 'notifications/cancelled POSTed', a);
      }),
    );
  return specOnly(checks);
}

/** The common requests of each revision, every message received checked against its schema. */
async function messageSchema(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  for (const revision of revisions)
    checks.push(
      await withClient(server, async (c) => {
        const id = `${revision}/message-schema`;
        if (revision === MODERN) {
          const meta = { _meta: modernMeta() };
          await c.send('POST', c.modernHeaders('server/discover'), { jsonrpc: '2.0', id: 1, method: 'server/discover', params: meta });
          await c.send('POST', c.modernHeaders('tools/list'), { jsonrpc: '2.0', id: 2, method: 'tools/list', params: meta });
          await c.send('POST', c.modernHeaders('tools/call', c.tools.plain.name), c.callBody(3, 0, true));
        } else {
          const s = await c.openSession();
          if (s) {
            const headers = c.legacyHeaders(s.sessionId, s.version);
            await c.send('POST', headers, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
            await c.send('POST', headers, c.callBody(3, 0, false));
            await c.send('POST', headers, ping(4));
          }
        }
        const source = `against ${schemaSource(revision)}`;
        if (c.checked === 0) return checkOf(id, { verdict: 'not tested', evidence: 'no message was received' });
        return c.malformed.length
          ? checkOf(id, {
              verdict: 'violates',
              evidence: `${c.malformed.length} of ${c.checked} messages malformed ${source}: ${c.malformed.slice(0, 3).join('; ')}`,
            })
          : checkOf(id, {
              verdict: 'conforms',
              evidence: `${c.checked} messages (initialize or discover, tools/list, tools/call, ping) valid ${source}`,
            });
      }),
    );
  return specOnly(checks);
}

export const TRANSPORT_PROBES: readonly TransportProbe[] = [
  ...SESSION_PROBES,
  {
    name: 'invalid-protocol-version',
    asks: 'a request whose MCP-Protocol-Version is unsupported or no version gets 400 (2025-11-25)',
    revisions: [LEGACY],
    run: invalidProtocolVersion,
  },
  {
    name: 'foreign-origin',
    asks: 'a request from a foreign Origin (http://evil.example.com) gets 403',
    revisions: [LEGACY, MODERN],
    run: foreignOrigin,
  },
  {
    name: 'post-notification-202',
    asks: 'a POSTed notification (or response) the server accepts gets 202 with no body',
    revisions: [LEGACY, MODERN],
    run: postNotification,
  },
  {
    name: 'message-schema',
    asks: 'every message received follows the revision’s schema (the official SDKs’ types)',
    revisions: [LEGACY, MODERN],
    run: messageSchema,
  },
];
