// One run of the official conformance suite against the audited server, per revision the audit
// audits: `conformance server --url <relay> --requirements <revision> -o <tmp>` (never
// --spec-version: in 0.2.0-alpha.12 `--spec-version 2026-07-28` runs 20 scenarios where the
// revision requires 50, conformance#426), through the relay that adds the credentials
// (relay.ts), on a Node that can run it (install.ts). Its exit is 0 or 1 for both "a check failed"
// and "bad invocation", so the run is judged from its output (suite-output.ts), never its exit. A run
// none of whose requests reached the server (the relay answered each with its own 502) is no run: an
// error that says why, never a report of checks the server took no part in.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Revision } from '../../../models/policies.ts';
import type { Upstream } from '../../wire/process/upstream.ts';
import type { SuiteInstall } from './install.ts';
import { startRelay } from './relay.ts';
import { readSuiteRun, SuiteOutputError, type SuiteRun } from './suite-output.ts';

/** The wall-clock limit of one requirement set (the suite's own per-scenario limit is 30 s; most take milliseconds). */
const RUN_LIMIT_MS = 180_000;

function runProcess(node: string, argv: readonly string[], limitMs: number): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(node, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') reject(new SuiteOutputError(`the conformance suite did not finish within ${limitMs / 1000} s`));
      else resolve({ stdout, stderr });
    });
  });
}

/** Run the suite's requirement set of each revision against `serverUrl`; the credentials reach the server only through the relay. */
export async function runSuite(
  install: SuiteInstall,
  serverUrl: string,
  upstream: Upstream,
  revisions: readonly Revision[],
): Promise<SuiteRun[]> {
  const relay = await startRelay(serverUrl, upstream);
  const runs: SuiteRun[] = [];
  try {
    for (const revision of revisions) {
      const dir = mkdtempSync(join(tmpdir(), 'faultsim-conformance-'));
      try {
        const before = { carried: relay.carried, unanswered: relay.unanswered };
        const args = ['server', '--url', relay.url, '--requirements', revision, '-o', dir];
        const { stdout, stderr } = await runProcess(install.node, [install.script, ...args], RUN_LIMIT_MS);
        if (!stdout.includes('Running requirements'))
          throw new SuiteOutputError(`the conformance suite did not run: ${(stderr || stdout).trim().split('\n').pop() ?? '(no output)'}`);
        // A suite none of whose requests reached the server judged only the relay's 502s: no run of it.
        const carried = relay.carried - before.carried;
        if (carried > 0 && relay.unanswered - before.unanswered === carried)
          throw new SuiteOutputError(
            `none of the suite's ${carried} requests of ${revision} reached the server through the relay: ${relay.lastError}`,
          );
        const folders = readdirSync(dir).map((f): [string, string | null] => {
          const file = join(dir, f, 'checks.json');
          return [f, existsSync(file) ? readFileSync(file, 'utf8') : null];
        });
        const command = `conformance server --url <relay to the server> --requirements ${revision}`;
        runs.push(readSuiteRun(revision, command, stdout, folders, stderr));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await relay.close();
  }
  return runs;
}
