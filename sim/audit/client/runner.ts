// Audit a client: every client scenario (client/scenarios.ts) with the client under audit as a
// process behind the JSON-lines protocol (wire/process/cmd-client.ts), reaching the server through the
// loopback fault proxy, judged by the same oracles and verdicts as the server audit. This file decides
// what runs: one short fault-free run finds the revision the harness speaks when asked (one it did not
// speak, or refused, makes every scenario not applicable, with why), then each chosen scenario runs
// (client/scenario-run.ts: the agent's verdict and the library's). The split: where faults land
// (request-marks.ts), a faulted run (faulted-run.ts), the library alone (library-run.ts).
// Runs are on the wall clock: evidence times are real milliseconds.
import { call } from '../../core/workload.ts';
import { CMD_CLIENT_TIMEOUT_MS, UNSUPPORTED_REVISION, type HarnessRevision } from '../../wire/process/cmd-client.ts';
import type { Watchdog } from '../../wire/process/watchdog.ts';
import type { WireServerSpec, WireSetup } from '../../wire/setup.ts';
import { describeSides } from '../../wire/setup.ts';
import { runWire } from '../../wire/world.ts';
import { CLIENT_AUDIT_ORDER, CLIENT_SCENARIOS, NOT_FOR_CLIENTS } from './scenarios.ts';
import type { AuditResult, ScenarioResult } from '../audit-row.ts';
import { passes } from '../verdict.ts';
import { spokenRevision } from './request-marks.ts';
import { runLimits } from './library-run.ts';
import { runClientScenario } from './scenario-run.ts';

export interface ClientAuditOptions {
  /** The client's command line (`sh -c`). */
  command: string;
  /** How the client and server are named on a command line (`--client-cmd '…' --server …`). */
  sidesArgs: string;
  /** Armed on every run whose server is in-process (a loopback server's endpoint arms its own). */
  watchdog?: Watchdog;
  only?: readonly string[];
  onScenario?: (done: number, total: number, name: string) => void;
  /** The revision `connect` asks for (default: the library's own). */
  revision?: HarnessRevision;
  /** The request timeout the agent runs give the harness, real ms (default CMD_CLIENT_TIMEOUT_MS).
   *  The library runs give none: the library is judged with its own defaults. */
  timeoutMs?: number;
  /** The library's declared default request timeout (the manifest's `defaultTimeoutMs`): ms, null
   *  for none; undefined when not declared. Printed in the evidence of a call that never settled. */
  declaredTimeoutMs?: number | null;
}

export interface ClientAuditResult extends AuditResult {
  /** The revision asked for, and the one the harness spoke (absent when it refused). */
  asked: HarnessRevision;
  /** Why no scenario ran in the asked revision (the harness refused it, or spoke another), if so. */
  refused?: string;
}

export async function runClientAudit(server: WireServerSpec, o: ClientAuditOptions): Promise<ClientAuditResult> {
  const asked = o.revision ?? 'default';
  const timeoutMs = o.timeoutMs ?? CMD_CLIENT_TIMEOUT_MS;
  const client = {
    kind: 'cmd' as const,
    command: o.command,
    revision: asked,
    timeoutMs,
    runLimitMs: runLimits(timeoutMs).agent,
    ...(o.watchdog ? { watchdog: o.watchdog } : {}),
  };
  const setup: WireSetup = { client, server };
  const chosen = CLIENT_AUDIT_ORDER.filter((n) => !o.only?.length || o.only.includes(n));
  // Which revision the harness speaks when asked: one short fault-free run.
  const probe = spokenRevision(await runWire(setup, { workload: [call()], plan: [] }));
  const spoke = probe && 'revision' in probe ? probe.revision : null;
  const refused =
    probe === null
      ? 'the harness never connected'
      : 'refused' in probe
        ? `the harness cannot speak ${asked}: ${probe.refused.slice(UNSUPPORTED_REVISION.length + 2)}`
        : asked !== 'default' && spoke !== asked
          ? `asked for ${asked}, the harness spoke ${spoke} (an older harness ignores the revision)`
          : undefined;
  const scenarios: ScenarioResult[] = [];
  for (const name of chosen) {
    o.onScenario?.(scenarios.length, chosen.length, name);
    const s = CLIENT_SCENARIOS.find((c) => c.name === name);
    const reproduce = { audit: `mcp-faultsim audit ${o.sidesArgs} --only ${name}`, check: '' };
    const na = (why: string): ScenarioResult => ({
      name,
      asks: s?.asks ?? '',
      verdict: 'not applicable',
      why,
      evidence: why,
      plan: '(none)',
      judgedBy: [],
      reproduce,
    });
    if (!s) scenarios.push(na(NOT_FOR_CLIENTS[name] ?? 'not a client scenario'));
    else if (refused !== undefined || spoke === null) scenarios.push(na(refused ?? 'the harness never connected'));
    else scenarios.push(await runClientScenario(s, setup, spoke, o));
  }
  o.onScenario?.(scenarios.length, chosen.length, '');
  const sides = describeSides(setup);
  // The exit follows the printed verdicts: the agent's and, beside it, the library's (audit-verdict.ts).
  const passed = scenarios.every((r) => passes(r.verdict) && (!r.library || passes(r.library.verdict)));
  return {
    client: o.command,
    server: sides.server,
    revisions: spoke ? [spoke] : [],
    asked,
    ...(refused !== undefined ? { refused } : {}),
    scenarios,
    pending: [],
    passed,
  };
}
