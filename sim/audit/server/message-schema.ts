// Every message the audit's probe client receives, checked against its revision's schema: the
// official SDKs' zod types, which follow the spec's TypeScript schema ("the source of truth for all
// protocol messages and structures", basic/index.mdx § Schema) — @modelcontextprotocol/sdk 1.32.2 for
// 2025-11-25, @modelcontextprotocol/core 2.4.0 (the v2 SDK's types) for 2026-07-28, both pinned. The
// envelope (a JSON-RPC request, notification, result or error) is checked for every message; a
// result is checked against its method's result type where the audit knows the method. A malformed
// message is named by its field (`result.content[0].text: expected string, received undefined`).
import * as modern from '@modelcontextprotocol/core';
import * as legacy from '@modelcontextprotocol/sdk/types.js';
import type { Revision } from '../../../models/policies.ts';

interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  errors?: readonly (readonly Issue[])[];
}
interface Schema {
  safeParse(x: unknown): { success: boolean; error?: { issues: readonly Issue[] } };
}

/** The schemas each revision's messages are checked against: the envelope, and the result of each method. */
const SCHEMAS: Readonly<Record<Revision, { envelope: Schema; results: Readonly<Record<string, Schema>>; source: string }>> = {
  '2025-11-25': {
    envelope: legacy.JSONRPCMessageSchema,
    results: {
      initialize: legacy.InitializeResultSchema,
      'tools/list': legacy.ListToolsResultSchema,
      'tools/call': legacy.CallToolResultSchema,
      ping: legacy.EmptyResultSchema,
    },
    source: '@modelcontextprotocol/sdk 1.32.2',
  },
  '2026-07-28': {
    envelope: modern.JSONRPCMessageSchema,
    results: {
      'server/discover': modern.DiscoverResultSchema,
      'tools/list': modern.ListToolsResultSchema,
      'tools/call': modern.CallToolResultSchema,
      ping: modern.EmptyResultSchema,
    },
    source: '@modelcontextprotocol/core 2.4.0',
  },
};

/** Where the schemas of a revision come from, for evidence. */
export const schemaSource = (r: Revision): string => SCHEMAS[r].source;

const pathText = (path: readonly PropertyKey[]): string =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');

/** The innermost issue: of a union, the branch that failed least (the shape the message came closest to). */
function deepest(issue: Issue, at: readonly PropertyKey[]): { path: readonly PropertyKey[]; message: string } {
  const here = [...at, ...issue.path];
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return { path: here, message: issue.message };
  const branch = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
  return branch.length ? deepest(branch[0]!, here) : { path: here, message: issue.message };
}

function firstIssue(schema: Schema, value: unknown, at: readonly PropertyKey[]): string | null {
  const r = schema.safeParse(value);
  if (r.success || !r.error?.issues.length) return null;
  const { path, message } = deepest(r.error.issues[0]!, at);
  return `${path.length ? pathText(path) : '(the message)'}: ${message}`;
}

/**
 * The first field of `message` that breaks `revision`'s schema, or null when it is well-formed. `method`
 * is the request it answers (null for a message that answers none, or an unknown method: envelope only).
 */
export function malformedField(revision: Revision, method: string | null, message: unknown): string | null {
  const s = SCHEMAS[revision];
  const envelope = firstIssue(s.envelope, message, []);
  if (envelope) return envelope;
  const m = message as { result?: unknown };
  const result = method !== null && 'result' in m ? s.results[method] : undefined;
  return result ? firstIssue(result, m.result, ['result']) : null;
}
