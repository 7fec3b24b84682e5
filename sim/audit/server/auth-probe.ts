// The authorization probe of issue 37 item 6: when the audit reaches the server with a bearer token
// (`--header-env Authorization=…`), a request without it, and one with a made-up token, must each get
// 401 with a `WWW-Authenticate` Bearer challenge ("Invalid or expired tokens MUST receive a HTTP 401
// response"; OAuth 2.1 § 5.3 error handling, RFC 6750 § 3). The requests go straight to the server on
// loopback, past the audit's proxy, which would add the user's credentials to every request.
import type { Revision } from '../../../models/policies.ts';
import type { SpecCheck } from '../../core/audit-verdict.ts';
import { loopbackFetch } from '../../wire/process/loopback-fetch.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { MODERN, modernMeta } from './probe-client.ts';
import { checkOf } from './spec-lens.ts';
import { specOnly, type TransportProbe } from './probe-kit.ts';

const BODY = {
  '2025-11-25': {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-faultsim audit probe', version: '0.1.0' } },
  },
  '2026-07-28': { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } },
} as const;

async function ask(url: string, revision: Revision, authorization: string | null, remote: boolean, ca?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(revision === MODERN ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' } : {}),
    ...(authorization ? { authorization } : {}),
  };
  const res = await loopbackFetch(
    null,
    url,
    { method: 'POST', headers, body: JSON.stringify(BODY[revision]), timeoutMs: 10_000, remote, ca },
    false,
  );
  await res.body?.cancel().catch(() => {});
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

async function auth401(server: WireServerSpec, revisions: readonly Revision[]) {
  const checks: SpecCheck[] = [];
  for (const revision of revisions) {
    const id = `${revision}/auth-401-challenge`;
    if (server.kind !== 'loopback') {
      checks.push(checkOf(id, { verdict: 'not tested', evidence: 'an in-process server takes no credentials' }));
      continue;
    }
    const { upstream } = server.endpoint;
    const url = server.endpoint.liveUrl?.() ?? server.endpoint.url;
    const given = upstream.headers.authorization;
    if (!given || !/^bearer /i.test(given)) {
      const names = Object.keys(upstream.headers);
      checks.push(
        checkOf(id, {
          verdict: 'not tested',
          evidence: names.length
            ? `the audit's credentials go in ${names.join(', ')}, not an Authorization bearer token: the spec's token handling does not bind them`
            : 'the audit was given no credentials: give the token with --header-env Authorization=VAR (VAR holding `Bearer …`) to check the 401 challenge',
        }),
      );
      continue;
    }
    let none: Awaited<ReturnType<typeof ask>>;
    let wrong: typeof none;
    try {
      none = await ask(url, revision, null, upstream.remote, upstream.ca);
      wrong = await ask(url, revision, 'Bearer faultsim-invalid-token', upstream.remote, upstream.ca);
    } catch (e) {
      checks.push(
        checkOf(id, { verdict: 'not tested', evidence: `the server did not answer: ${e instanceof Error ? e.message : String(e)}` }),
      );
      continue;
    }
    const show = (a: { status: number; challenge: string | null }) =>
      `HTTP ${a.status}${a.challenge ? ` WWW-Authenticate: ${a.challenge.split(/[ ,]/)[0]} …` : ', no WWW-Authenticate'}`;
    const what = `${BODY[revision].method} without credentials: ${show(none)}; with a made-up bearer token: ${show(wrong)}`;
    if (none.status < 300 && wrong.status < 300) {
      checks.push(checkOf(id, { verdict: 'not tested', evidence: `${what}: the server asks for no credentials` }));
      continue;
    }
    const challenged = (a: typeof none) => a.status === 401 && /^bearer\b/i.test(a.challenge ?? '');
    checks.push(
      challenged(none) && challenged(wrong)
        ? checkOf(id, { verdict: 'conforms', evidence: what })
        : checkOf(id, { verdict: 'violates', evidence: `${what}: not 401 with a Bearer challenge` }),
    );
  }
  return specOnly(checks);
}

export const AUTH_PROBE: TransportProbe = {
  name: 'auth-401-challenge',
  asks: 'with auth on, a request without the token or with a bad one gets 401 and a WWW-Authenticate Bearer challenge',
  revisions: ['2025-11-25', '2026-07-28'],
  run: auth401,
};
