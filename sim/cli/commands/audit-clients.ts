// `mcp-faultsim audit --clients MANIFEST`: the ecosystem matrix. Every client of the manifest
// (audit/client/manifest.ts) in every revision it speaks, against the model server and the SDK v2
// server in that revision (audit/client/matrix.ts), `--jobs` audits at a time (each client a process
// on the wall clock; the in-process servers are light), with a progress bar on stderr. One report
// set: clients.md, clients.html, clients.json, clients.junit.xml; `--repro DIR` writes a standalone
// reproduction per non-pass (audit/client/repro.ts). An audit whose harness fails its fault-free run
// or overstays the watchdog is reported as not finished (exit 4), the others still run.
import { join } from 'node:path';
import { runClientAudit } from '../../audit/client/runner.ts';
import {
  jobArgs,
  matrixJobs,
  matrixPassed,
  matrixRows,
  matrixNonPasses,
  matrixServer,
  type ClientMatrix,
  type MatrixAudit,
  type MatrixJob,
} from '../../audit/client/matrix.ts';
import { ManifestError, readManifest, resolvedCommand } from '../../audit/client/manifest.ts';
import { CLIENT_AUDIT_ORDER } from '../../audit/client/scenarios.ts';
import { writeRepros } from '../../audit/client/repro.ts';
import { applyBaseline, type BaselineRequest } from './audit-baseline.ts';
import { renderMatrixHtml, renderMatrixJunit } from '../../../reports/client-matrix-html.ts';
import { renderMatrixMarkdown, renderMatrixText } from '../../../reports/client-matrix-text.ts';
import { formatJson } from '../../../reports/json-format.ts';
import { Watchdog } from '../../wire/process/watchdog.ts';
import { CMD_CLIENT_TIMEOUT_MS } from '../../wire/process/cmd-client.ts';
import { withinRealMs } from '../../wire/protocol/real-timers.ts';
import { runWire } from '../../wire/world.ts';
import { EXIT, UsageError } from '../errors.ts';
import { checkOutDir, replaceFolder } from '../files.ts';
import { CLIENT_REFERENCE, requireWorkingReference } from '../reference-check.ts';

export const MATRIX_FILES = ['clients.md', 'clients.html', 'clients.json', 'clients.junit.xml'];

export interface ClientsOptions {
  manifest: string;
  only: readonly string[];
  out?: string;
  repro?: string;
  json: boolean;
  progress: boolean;
  watchdogMs: number;
  jobs: number;
  baseline?: BaselineRequest;
}

const mmss = (ms: number) => `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;

/** A bar on stderr: redrawn in place on a terminal, a line per finished audit otherwise. */
function progressBar(total: number, enabled: boolean) {
  const started = Date.now();
  const tty = process.stderr.isTTY === true;
  let done = 0;
  const draw = (what: string, line: boolean) => {
    if (!enabled || (!tty && !line)) return;
    const elapsed = Date.now() - started;
    const width = 24;
    const filled = Math.round((done / Math.max(total, 1)) * width);
    const eta = done ? mmss((elapsed / done) * (total - done)) : '?';
    const text = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} scenarios, ${mmss(elapsed)} elapsed, ~${eta} left  ${what}`;
    process.stderr.write(tty ? `\r\x1b[K${text.slice(0, (process.stderr.columns ?? 120) - 1)}` : `${text}\n`);
  };
  return {
    step: (what: string) => {
      done++;
      draw(what, false);
    },
    finished: (what: string, add: number) => {
      done += add;
      draw(what, true);
    },
    end: () => {
      if (enabled && tty) process.stderr.write('\n');
      return Date.now() - started;
    },
  };
}

async function runJob(job: MatrixJob, o: ClientsOptions, scenarios: number, bar: ReturnType<typeof progressBar>): Promise<MatrixAudit> {
  const base = { client: job.client.name, revision: job.revision, server: job.server, command: job.command, serverArgs: job.serverArgs };
  const name = `${job.client.name} ${job.revision} ${job.server}`;
  const watchdog = new Watchdog(o.watchdogMs);
  const server = matrixServer(job.server, job.revision);
  const client = { kind: 'cmd' as const, command: job.command, revision: job.revision, watchdog };
  let stepped = 0;
  const audited = (async () => {
    await requireWorkingReference(
      `audit --clients: ${job.client.name} in ${job.revision}`,
      (workload) => runWire({ client, server }, { workload, plan: [] }),
      CLIENT_REFERENCE,
    );
    return runClientAudit(server, {
      command: job.command,
      sidesArgs: jobArgs(job),
      revision: job.revision,
      declaredTimeoutMs: job.client.defaultTimeoutMs,
      watchdog,
      only: o.only,
      onScenario: (_done, _total, scenario) => {
        if (!scenario) return;
        if (stepped++ > 0) bar.step(`${name}: ${scenario}`);
      },
    });
  })();
  try {
    const ended = await Promise.race([audited.then((result) => ({ result })), watchdog.aborted.then((aborted) => ({ aborted }))]);
    if ('aborted' in ended) {
      audited.catch(() => {});
      await withinRealMs(audited.then(nothing, nothing), 3000, undefined);
      return { ...base, result: { error: `${ended.aborted.outcome}: ${ended.aborted.why}` } };
    }
    return { ...base, result: ended.result };
  } catch (e) {
    if (e instanceof UsageError) return { ...base, result: { error: e.message } };
    throw e;
  } finally {
    watchdog.disarm();
    bar.finished(`${name} done`, scenarios - Math.max(stepped - 1, 0));
  }
}

const nothing = () => {};

export async function runClientsAudit(o: ClientsOptions, out: NodeJS.WritableStream): Promise<number> {
  let jobs: MatrixJob[];
  const root = process.cwd();
  try {
    const clients = readManifest(o.manifest);
    jobs = matrixJobs(clients, (c) => resolvedCommand(c, root));
  } catch (e) {
    if (e instanceof ManifestError) throw new UsageError(e.message);
    throw e;
  }
  if (o.out !== undefined) checkOutDir(o.out);
  const scenarios = CLIENT_AUDIT_ORDER.filter((n) => !o.only.length || o.only.includes(n)).length;
  const bar = progressBar(jobs.length * scenarios, o.progress);
  if (o.progress) process.stderr.write(`audit --clients: ${jobs.length} audits (${o.jobs} at a time) of ${scenarios} scenarios each\n`);
  const audits: MatrixAudit[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) audits[i] = await runJob(jobs[i]!, o, scenarios, bar);
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs, jobs.length) }, worker));
  const wallMs = bar.end();
  const clients = [...new Map(jobs.map((j) => [j.client.name, j.client])).values()];
  const matrix: ClientMatrix = {
    manifest: o.manifest,
    clients,
    audits,
    rows: matrixRows({ audits }),
    passed: matrixPassed(audits),
    agentTimeoutMs: CMD_CLIENT_TIMEOUT_MS,
  };
  const repro = o.repro !== undefined ? writeRepros(matrix, o.repro, root) : undefined;
  const timed = { ...matrix, timing: { wallMs, jobs: o.jobs } };
  out.write(o.json ? `${formatJson(timed)}\n` : renderMatrixText(matrix));
  if (o.out !== undefined) {
    const files = new Map([
      ['clients.md', renderMatrixMarkdown(matrix, '#', repro)],
      ['clients.html', renderMatrixHtml(matrix)],
      ['clients.json', `${formatJson(timed)}\n`],
      ['clients.junit.xml', renderMatrixJunit(matrix)],
    ]);
    replaceFolder(o.out, files);
    if (!o.json) for (const f of MATRIX_FILES) out.write(`wrote ${join(o.out, f)}\n`);
  }
  if (repro && !o.json) out.write(`wrote ${repro.size} standalone reproduction(s) under ${o.repro}\n`);
  if (audits.some((a) => 'error' in a.result)) return EXIT.incomplete;
  const versus = o.baseline ? applyBaseline(o.baseline, 'client', matrixNonPasses(matrix.rows), out, o.json) : null;
  if (versus !== null) return versus;
  return matrix.passed ? EXIT.ok : EXIT.violated;
}
