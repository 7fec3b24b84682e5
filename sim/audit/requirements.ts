// Why one file: the spec requirements the audits judge by, as data — one place that the server
// audit's spec lens and the client audit both read, so a verdict links to exactly one entry.
// Each `text` is the spec sentence quoted verbatim from the file named in `section` (the Markdown
// emphasis `**MUST**` written as plain `MUST`; an elision marked `…`). Sources: the repository
// modelcontextprotocol/modelcontextprotocol, docs/specification/<revision>/… at the commit in
// `SPEC_SOURCES`. A requirement the spec leaves open has level `unspecified`: its scenario records
// what the implementation did and never reports a violation.
import type { Revision } from '../../models/policies.ts';

export type RequirementLevel = 'MUST' | 'MUST NOT' | 'SHOULD' | 'MAY' | 'unspecified';

export interface Requirement {
  /** Stable: `<revision>/<slug>`; reports, JUnit and the client audit name a requirement by it. */
  id: string;
  revision: Revision;
  /** Where the sentence is: the spec file (under docs/specification/) and its heading. */
  section: { file: string; heading: string };
  level: RequirementLevel;
  /** The sentence, verbatim (emphasis markup dropped). */
  text: string;
  /** The side the sentence binds. */
  binds: 'server' | 'client';
  /** How the audit observes it: the scenarios that exercise it (`*`: every scenario of its revision) and the evidence it reads. */
  observed: { scenarios: readonly string[]; evidence: string };
  /**
   * A feature the revision makes optional (an event store for resumption): a side that does not
   * offer it reads `optional, not implemented`, never `violates`.
   */
  optional?: true;
}

/** The spec files quoted here, at the commit they were read from. */
export const SPEC_SOURCES = {
  repository: 'modelcontextprotocol/modelcontextprotocol',
  files: {
    '2025-11-25/basic/transports.mdx': '1ea6213c8808da7d647a914f329dcee781336f39',
    '2025-11-25/basic/lifecycle.mdx': '744fb4163c5b41d01d8b905ec93628759bab8996',
    '2025-11-25/basic/index.mdx': '1ea6213c8808da7d647a914f329dcee781336f39',
    '2026-07-28/basic/transports/streamable-http.mdx': 'b488c16623e5202a3961e551886044577ae0f096',
    '2026-07-28/basic/versioning.mdx': 'b488c16623e5202a3961e551886044577ae0f096',
    '2026-07-28/basic/index.mdx': 'b488c16623e5202a3961e551886044577ae0f096',
    '2026-07-28/changelog.mdx': 'ab58d0d5983f6e7427a3a726b1b2db49bf3753d3',
    '2025-11-25/basic/authorization.mdx': '4e4cbcedbc79787c7ec45388c79e5021411f4709',
    '2026-07-28/basic/authorization/index.mdx': '005e2c96d1382101a396fb2ba2b41c5f3087b9df',
  } as Record<string, string>,
} as const;

const T25 = '2025-11-25/basic/transports.mdx';
const T26 = '2026-07-28/basic/transports/streamable-http.mdx';

const CORE: readonly Requirement[] = [
  // ── 2025-11-25, server ──────────────────────────────────────────────────────────────────────
  {
    id: '2025-11-25/unknown-session-404',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Session Management' },
    level: 'MUST',
    text: 'The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.',
    binds: 'server',
    observed: {
      scenarios: ['unknown-session', 'server-restart', 'delete-then-request', 'made-up-session'],
      evidence:
        'the HTTP status of the first request that carries a session id the server does not know (made-up-session: an id never issued, which the sentence covers by interpretation)',
    },
  },
  {
    id: '2025-11-25/missing-session-id-400',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Session Management' },
    level: 'SHOULD',
    text: 'Servers that require a session ID SHOULD respond to requests without an `MCP-Session-Id` header (other than initialization) with HTTP 400 Bad Request.',
    binds: 'server',
    observed: {
      scenarios: ['strip-session-id'],
      evidence:
        'the HTTP status of a tools/call whose Mcp-Session-Id the proxy removed (a server that answers it with a result does not require a session id)',
    },
  },
  {
    id: '2025-11-25/request-content-type',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Sending Messages to the Server' },
    level: 'MUST',
    text: 'If the input is a JSON-RPC _request_, the server MUST either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object.',
    binds: 'server',
    observed: {
      scenarios: ['strip-accept'],
      evidence:
        'the answer to a tools/call whose Accept the proxy removed: a refusal (406 Not Acceptable, or another 4xx) or a well-formed answer of one of the two types conforms; a 2xx of any other Content-Type violates',
    },
  },
  {
    id: '2025-11-25/get-sse-or-405',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Listening for Messages from the Server' },
    level: 'MUST',
    text: 'The server MUST either return `Content-Type: text/event-stream` in response to this HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this endpoint.',
    binds: 'server',
    observed: { scenarios: ['get-405'], evidence: 'the status and Content-Type of a GET on the endpoint within a live session' },
  },
  {
    id: '2025-11-25/reinit-live-session',
    revision: '2025-11-25',
    section: { file: '2025-11-25/basic/lifecycle.mdx', heading: 'Initialization' },
    level: 'unspecified',
    text: 'The initialization phase MUST be the first interaction between client and server.',
    binds: 'server',
    observed: {
      scenarios: ['reinit-live-session'],
      evidence:
        'what the server answered to a second initialize on a live session (the spec does not say what it must do: recorded, never a violation)',
    },
  },
  {
    id: '2025-11-25/resumable-stream',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Resumability and Redelivery' },
    level: 'MAY',
    text: 'Servers MAY attach an `id` field to their SSE events, as described in the SSE standard.',
    binds: 'server',
    observed: {
      scenarios: ['stream-cut-call'],
      evidence: 'whether the cut tools/call stream carried event ids, and whether a GET with Last-Event-ID delivered the result',
    },
    optional: true,
  },
  {
    id: '2025-11-25/own-answer-per-request',
    revision: '2025-11-25',
    section: { file: '2025-11-25/basic/index.mdx', heading: 'Result Responses' },
    level: 'MUST',
    text: 'Result responses MUST include the same ID as the request they correspond to.',
    binds: 'server',
    observed: {
      scenarios: ['two-callers-one-id', 'id-reused-in-flight'],
      evidence:
        'two requests in flight under the same JSON-RPC id — a tools/call and a tools/list in two sessions; or two calls in one session, where the client breaks its own MUST NOT and the server’s reaction is open: each answer is the answer to its own request',
    },
  },
  // ── 2026-07-28, server ──────────────────────────────────────────────────────────────────────
  {
    id: '2026-07-28/protocol-version-missing-400',
    revision: '2026-07-28',
    section: { file: T26, heading: 'Protocol Version Header' },
    level: 'MUST',
    text: 'A server that does not support such clients MUST reject a request without the header per Server Validation. … When rejecting a request due to header validation failure, servers MUST return HTTP status `400 Bad Request` and MUST include a JSON-RPC error response using the following error code: `-32020` HeaderMismatch',
    binds: 'server',
    observed: {
      scenarios: ['strip-protocol-version'],
      evidence: 'the HTTP status and JSON-RPC error code of a request whose MCP-Protocol-Version the proxy removed',
    },
  },
  {
    id: '2026-07-28/protocol-version-mismatch-400',
    revision: '2026-07-28',
    section: { file: T26, heading: 'Protocol Version Header' },
    level: 'MUST',
    text: 'The header value MUST match the `io.modelcontextprotocol/protocolVersion` field carried in the request body’s `_meta`. If the values do not match, the server MUST reject the request with `400 Bad Request` and a `HeaderMismatch` JSON-RPC error (see Server Validation).',
    binds: 'server',
    observed: {
      scenarios: ['mismatch-protocol-version'],
      evidence: 'the HTTP status and JSON-RPC error code of a request whose MCP-Protocol-Version the proxy rewrote to another revision',
    },
  },
  {
    id: '2026-07-28/get-405',
    revision: '2026-07-28',
    section: { file: T26, heading: 'Earlier Streamable HTTP Revisions' },
    level: 'SHOULD',
    text: 'A server that supports only this revision and receives such traffic from an older client SHOULD respond as follows: HTTP GET or DELETE to the MCP endpoint: respond with `405 Method Not Allowed`.',
    binds: 'server',
    observed: { scenarios: ['get-405'], evidence: 'the status of a GET on the endpoint (a server of 2026-07-28 only)' },
  },
  {
    id: '2026-07-28/close-is-cancellation',
    revision: '2026-07-28',
    section: { file: T26, heading: 'Cancellation' },
    level: 'MUST',
    text: 'Closing the SSE response stream MUST be treated by the server as cancellation of that request. … The server SHOULD stop work on the cancelled request as soon as practical and MUST NOT send any further messages for it.',
    binds: 'server',
    observed: {
      scenarios: ['close-cancels'],
      evidence:
        'a side-effecting tools/call whose response the client closes before the tool finishes: a later read shows whether the work was still done (the effect visible) after the close',
    },
  },
  {
    id: '2026-07-28/server-discover',
    revision: '2026-07-28',
    section: { file: '2026-07-28/basic/versioning.mdx', heading: 'Protocol Version Negotiation' },
    level: 'MUST',
    text: 'Servers MUST implement `server/discover`.',
    binds: 'server',
    observed: { scenarios: ['server-discover'], evidence: 'the answer to a server/discover request: a result naming supported versions' },
  },
  {
    id: '2026-07-28/own-answer-per-request',
    revision: '2026-07-28',
    section: { file: '2026-07-28/basic/index.mdx', heading: 'Result Responses' },
    level: 'MUST',
    text: 'Result responses MUST include the same ID as the request they correspond to.',
    binds: 'server',
    observed: {
      scenarios: ['two-callers-one-id'],
      evidence:
        'two clients, one with a tools/call and one with a tools/list in flight under the same JSON-RPC id: each answer is the answer to its own request',
    },
  },
  // ── client side (the client audit judges these; the server audit's spec-literal client follows them) ──
  {
    id: '2025-11-25/client-new-session-after-404',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Session Management' },
    level: 'MUST',
    text: 'When a client receives HTTP 404 in response to a request containing an `MCP-Session-Id`, it MUST start a new session by sending a new `InitializeRequest` without a session ID attached.',
    binds: 'client',
    observed: {
      scenarios: ['unknown-session', 'server-restart'],
      evidence: 'after a 404 on a request with a session id, the client’s next request is an initialize without Mcp-Session-Id',
    },
  },
  {
    id: '2025-11-25/client-protocol-version-header',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Protocol Version Header' },
    level: 'MUST',
    text: 'If using HTTP, the client MUST include the `MCP-Protocol-Version: <protocol-version>` HTTP header on all subsequent requests to the MCP server, allowing the MCP server to respond based on the MCP protocol version.',
    binds: 'client',
    observed: { scenarios: ['*'], evidence: 'every request after initialize carries MCP-Protocol-Version' },
  },
  {
    id: '2025-11-25/client-session-id-on-requests',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Session Management' },
    level: 'MUST',
    text: 'If an `MCP-Session-Id` is returned by the server during initialization, clients using the Streamable HTTP transport MUST include it in the `MCP-Session-Id` header on all of their subsequent HTTP requests.',
    binds: 'client',
    observed: {
      scenarios: ['*'],
      evidence: 'every request after the initialize answer carries the issued Mcp-Session-Id',
    },
  },
  {
    id: '2025-11-25/client-accept-both',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Sending Messages to the Server' },
    level: 'MUST',
    text: 'The client MUST include an `Accept` header, listing both `application/json` and `text/event-stream` as supported content types.',
    binds: 'client',
    observed: { scenarios: ['*'], evidence: 'the Accept header of every POST the client sends' },
  },
  {
    id: '2025-11-25/client-resume-last-event-id',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Resumability and Redelivery' },
    level: 'SHOULD',
    text: 'If the client wishes to resume after a disconnection (whether due to network failure or server-initiated closure), it SHOULD issue an HTTP GET to the MCP endpoint, and include the `Last-Event-ID` header to indicate the last event ID it received.',
    binds: 'client',
    observed: {
      scenarios: ['stream-cut-call'],
      evidence:
        'after a cut stream that carried event ids, the client’s next request is a GET with Last-Event-ID set to the last id it received',
    },
  },
  {
    id: '2026-07-28/client-reissue-new-id',
    revision: '2026-07-28',
    section: { file: '2026-07-28/changelog.mdx', heading: 'Major changes' },
    level: 'MUST',
    text: 'A broken response stream loses the in-flight request; clients MUST re-issue it as a new request with a new request ID.',
    binds: 'client',
    observed: {
      scenarios: ['cut-reissue-once'],
      evidence: 'after a cut response stream, the client sends the same method and params again under a request id it has not used',
    },
  },
  {
    id: '2026-07-28/client-protocol-version-header',
    revision: '2026-07-28',
    section: { file: T26, heading: 'Protocol Version Header' },
    level: 'MUST',
    text: 'Every POST request to the MCP endpoint MUST include an `MCP-Protocol-Version` header.',
    binds: 'client',
    observed: { scenarios: ['*'], evidence: 'every POST the client sends carries MCP-Protocol-Version' },
  },
];

// ── the transport's requirements the probes of transport-probes.ts and auth-probe.ts judge (issue 37 item 6) ──
function both(
  slug: string,
  level: RequirementLevel,
  sections: Record<Revision, { file: string; heading: string; text: string }>,
  observed: Requirement['observed'],
): Requirement[] {
  return (Object.keys(sections) as Revision[]).map((revision) => ({
    id: `${revision}/${slug}`,
    revision,
    section: { file: sections[revision].file, heading: sections[revision].heading },
    level,
    text: sections[revision].text,
    binds: 'server',
    observed,
  }));
}

const ORIGIN_403 = 'If the `Origin` header is present and invalid, servers MUST respond with HTTP 403 Forbidden.';
const TOKEN_401 =
  'Invalid or expired tokens MUST receive a HTTP 401 response. … If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements.';
const WELL_FORMED = 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.';

const TRANSPORT_PROBED: readonly Requirement[] = [
  {
    id: '2025-11-25/invalid-protocol-version-400',
    revision: '2025-11-25',
    section: { file: T25, heading: 'Protocol Version Header' },
    level: 'MUST',
    text: 'If the server receives a request with an invalid or unsupported `MCP-Protocol-Version`, it MUST respond with `400 Bad Request`.',
    binds: 'server',
    observed: {
      scenarios: ['invalid-protocol-version'],
      evidence:
        'the status of a request in a live session whose MCP-Protocol-Version is unsupported (1999-01-01) and one whose value is no version at all',
    },
  },
  ...both(
    'origin-403',
    'MUST',
    {
      '2025-11-25': { file: T25, heading: 'Security Warning', text: ORIGIN_403 },
      '2026-07-28': { file: T26, heading: 'Security & Endpoint', text: ORIGIN_403 },
    },
    {
      scenarios: ['foreign-origin'],
      evidence:
        'the status of a request with Origin http://evil.example.com (Host unchanged, credentials sent), beside the same request with the server’s own origin',
    },
  ),
  ...both(
    'accepted-202-empty',
    'MUST',
    {
      '2025-11-25': {
        file: T25,
        heading: 'Sending Messages to the Server',
        text: 'If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.',
      },
      '2026-07-28': {
        file: T26,
        heading: 'Sending Messages',
        text: 'If the server accepts it, the server MUST return HTTP status code `202 Accepted` with no body.',
      },
    },
    {
      scenarios: ['post-notification-202'],
      evidence:
        'the status and body of a POSTed notification (and, in 2025-11-25, a POSTed response): accepted is 202 with no body; refused is any error status',
    },
  ),
  ...both(
    'auth-401-challenge',
    'MUST',
    {
      '2025-11-25': { file: '2025-11-25/basic/authorization.mdx', heading: 'Token Handling', text: TOKEN_401 },
      '2026-07-28': { file: '2026-07-28/basic/authorization/index.mdx', heading: 'Token Handling', text: TOKEN_401 },
    },
    {
      scenarios: ['auth-401-challenge'],
      evidence:
        'a request without the credentials the audit was given, and one with a made-up bearer token: 401 with a WWW-Authenticate Bearer challenge (OAuth 2.1 § 5.3, RFC 6750 § 3)',
    },
  ),
  ...both(
    'message-schema',
    'MUST',
    {
      '2025-11-25': { file: '2025-11-25/basic/index.mdx', heading: 'Messages', text: WELL_FORMED },
      '2026-07-28': { file: '2026-07-28/basic/index.mdx', heading: 'Messages', text: WELL_FORMED },
    },
    {
      scenarios: ['message-schema'],
      evidence:
        'every message the probe clients received, and every message the model client received in each fault scenario (a finding of that scenario’s row), against the revision’s schema (the official SDKs’ types of the spec’s TypeScript schema): the first field that breaks it',
    },
  ),
];

export const REQUIREMENTS: readonly Requirement[] = [...CORE, ...TRANSPORT_PROBED];

export function requirementById(id: string): Requirement | undefined {
  return REQUIREMENTS.find((r) => r.id === id);
}

/** The requirements a scenario exercises (by its `observed.scenarios`), for one side. */
export function requirementsOf(scenario: string, binds: Requirement['binds'] = 'server'): Requirement[] {
  return REQUIREMENTS.filter((r) => r.binds === binds && (r.observed.scenarios.includes(scenario) || r.observed.scenarios.includes('*')));
}

/** The published page of a requirement's section (the spec site mirrors docs/specification/). */
export function requirementUrl(r: Requirement): string {
  const page = r.section.file.replace(/\.mdx$/, '').replace(/\/index$/, '');
  const anchor = r.section.heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
  return `https://modelcontextprotocol.io/specification/${page}#${anchor}`;
}

/** One line for a report: `2025-11-25 transports.mdx § Session Management (MUST): "…"`. */
export function quoteOf(r: Requirement): string {
  return `${r.revision} ${r.section.file.slice(r.revision.length + 1)} § ${r.section.heading} (${r.level}): "${r.text}"`;
}

/** Every MUST and SHOULD of the transport and the HTTP-observable authorization, with what judges each (docs/auditing.md's table). */
export { TRANSPORT_REQUIREMENTS, type TransportRequirement } from './transport-requirements.ts';
