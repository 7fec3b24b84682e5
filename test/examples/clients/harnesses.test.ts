// Every client of examples/clients/clients.json, in every revision its entry lists: its harness runs
// the fault-free workload through the loopback fault proxy (the audit's machinery, wire/proxy-run.ts)
// against the model server speaking only that revision, and every call ends with a result, its
// tools/call tied to the workload call, the revision the harness says it spoke the one asked for, and
// no process left behind. A harness whose library is missing (npm ci --prefix examples/clients, the
// Python venv, Node 24) FAILS with the reason: a client that did not run must not read as one that did.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combination, type Revision } from '../../../models/policies.ts';
import type { History } from '../../../sim/core/history.ts';
import { call } from '../../../sim/core/workload.ts';
import { liveGroups } from '../../../sim/wire/process/process-groups.ts';
import { runWire } from '../../../sim/wire/world.ts';
import { ROOT } from '../../sim/cli/run.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

interface Entry {
  name: string;
  revisions: Revision[];
  command: string;
  node: '20' | '24' | null;
}

const NODE24 = '.ci/node24/node_modules/.bin/node';
const manifest: Entry[] = JSON.parse(readFileSync(join(ROOT, 'examples/clients/clients.json'), 'utf8'));

/** The command as the audit runs it: a `"node": "24"` entry's `node` is the project's Node 24. */
function commandOf(e: Entry): string {
  const needs = [
    [e.node !== null, 'examples/clients/node_modules', 'npm ci --prefix examples/clients'],
    [e.node === '24', NODE24, 'npm ci --prefix .ci/node24'],
    [e.command.startsWith('.venv-mcp/'), '.venv-mcp/bin/python', 'bash .ci/python-venv.sh'],
  ] as const;
  for (const [applies, path, fix] of needs)
    if (applies && !existsSync(join(ROOT, path))) throw new Error(`${e.name}: no ${path} (run ${fix})`);
  return e.node === '24' ? e.command.replace(/^node /, `${NODE24} `) : e.command;
}

const ends = (h: History) => h.entries.flatMap((e) => (e.kind === 'end' ? [[e.callId, e.end, e.attempts]] : []));
const spoken = (h: History) => h.entries.flatMap((e) => (e.kind === 'client' && e.note === 'discovered' ? [e.revision] : []));

describe.each(manifest.map((e) => [e.name, e] as const))('%s', (_name, e) => {
  it.each(e.revisions)('runs the fault-free workload in %s', async (revision) => {
    const server = { kind: 'model' as const, policy: combination({ server: { protocol: revision } }, NO_ADDITIONS).server };
    const h = await runWire({ client: { kind: 'cmd', command: commandOf(e), revision }, server }, { workload: [call(), call()], plan: [] });
    const failed = h.entries.filter((x) => x.kind === 'client' && (x.note === 'attempt-failed' || x.note === 'handshake-failed'));
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(ends(h)).toEqual([
      [0, 'result', 1],
      [1, 'result', 1],
    ]);
    expect(spoken(h)).toEqual([revision]);
    const calls = h.entries.flatMap((x) => (x.kind === 'request' && x.rpc === 'tools/call' ? [x.callId] : []));
    expect(calls).toEqual([0, 1]);
    expect(liveGroups()).toEqual([]);
  });
});
