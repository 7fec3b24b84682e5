// A check result as a person reads it in a terminal: the verdict table, the vacuity counts, and for
// each violation its shrunk counterexample and the command that reproduces it.
import { formatClient, formatServer, MODERN, notApplicable, speaks } from '../models/policies.ts';
import type { CheckResult } from '../sim/search/random/check.ts';
import { describePlan } from '../sim/core/plan.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { renderCoverage } from './coverage-text.ts';
import { describeExhaustive } from './explore-text.ts';
import { table } from './table.ts';
import { plural } from './words.ts';
import type { BrokenWithoutFaults } from '../sim/compare/fault-free.ts';

export function checkCommand(r: CheckResult, property?: string): string {
  const faults = r.faults.join(',');
  return [
    'mcp-faultsim check',
    `--server ${formatServer(r.combination.server)}`,
    `--client ${formatClient(r.combination.client)}`,
    `--faults ${faults}`,
    property ? `--property ${property}` : '',
    `--seed ${r.seed} --runs ${r.runs}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/** The line `check` prints first for a combination whose fault-free runs fail (compare/fault-free.ts). */
export function brokenLine(b: BrokenWithoutFaults): string {
  return `BROKEN WITHOUT FAULTS: ${b.reason}. No fault was tried: every fault run would fail for this reason alone.`;
}

/** The fault-free run that shows a combination broken, as the check text and the reports print it. */
export function brokenRun(b: BrokenWithoutFaults): string[] {
  const calls = b.failed.map((f) => `call ${f.callId}: ${f.end === 'error' ? `error (${f.reason})` : `no result (${f.end})`}`);
  return [`  workload  ${describeWorkload(b.workload)} (no faults)`, `  outcomes  ${calls.join(', ') || 'no call returned a result'}`];
}

/** `check` of a combination broken without faults: the reason first, the combination, the run that shows it. */
export function renderBroken(r: CheckResult, b: BrokenWithoutFaults): string {
  const out = [brokenLine(b), '', `server  ${formatServer(r.combination.server)}`, `client  ${formatClient(r.combination.client)}`];
  out.push(`faults  ${r.faults.join(', ')} (not tried)`, '', 'the fault-free run that fails:', ...brokenRun(b));
  if (!speaks(r.combination, '2025-11-25') && !speaks(r.combination, MODERN))
    out.push('', `the sides meet with --client protocol=negotiate or --server protocol=dual, or with both sides on one revision`);
  return `${out.join('\n')}\n`;
}

/** `coverage`: list every unreached state and transition (`--coverage`), not only the summary line. */
export function renderCheck(r: CheckResult, coverage = false): string {
  const out: string[] = [];
  out.push(`server  ${formatServer(r.combination.server)}`);
  out.push(`client  ${formatClient(r.combination.client)}`);
  const na = notApplicable(r.combination);
  if (na.length) out.push(`n/a     ${na.join(', ')} (no 2025-11-25 session between these sides: they configure nothing here)`);
  out.push(`faults  ${r.faults.join(', ')}`);
  out.push(`seed ${r.seed}, ${r.runs} runs`);
  out.push('');
  const rows = r.results.map((p) => [
    p.property,
    p.verdict === 'violated' ? 'VIOLATED' : p.verdict,
    `${p.reached}/${r.runs}`,
    `${p.violations}/${r.runs}`,
  ]);
  out.push(table(['property', 'verdict', 'reached', 'violated in'], rows, ['l', 'l', 'r', 'r']));
  const o = r.results[0]?.outcomes;
  if (o) out.push('', `call outcomes: ${o.ok} ok, ${o.error} error, ${o['silent-empty']} silent-empty, ${o['silent-hang']} silent-hang`);
  const s = r.stats;
  const fired =
    Object.entries(s.faultsApplied)
      .map(([f, n]) => `${f} ×${n}`)
      .join(', ') || 'none';
  out.push(
    `situations: ${s.reconnects} reconnects, ${s.reinitializes} re-initializes, ${s.fallbacks} transport fallbacks; faults that acted: ${fired}`,
  );
  const exhaustive = r.results.filter((p) => p.exhaustive);
  if (exhaustive.length > 0) {
    const x = exhaustive[0]!.exhaustive!;
    out.push(
      '',
      `exhaustive search beside it: every plan of up to ${plural(x.depth, 'fault')}, ${x.states.toLocaleString('en-US')} distinct states covering ${x.plans.toLocaleString('en-US')} plans`,
    );
    const width = Math.max(...exhaustive.map((p) => p.property.length));
    for (const p of exhaustive) out.push(`  ${p.property.padEnd(width)}  ${describeExhaustive(p.exhaustive!)}`);
  }
  for (const p of r.results) {
    if (p.verdict === 'vacuous') out.push('', `${p.property} is vacuous: its situation was never reached in ${r.runs} runs.`);
    const ce = p.counterexample;
    if (!ce) continue;
    out.push('', `${p.property} VIOLATED: ${ce.why}`);
    out.push(`  faults    ${describePlan(ce.faults)}`);
    out.push(`  workload  ${describeWorkload(ce.workload)}${ce.schedule.length ? `  (schedule ${ce.schedule.join(',')})` : ''}`);
    out.push(`  outcomes  ${ce.outcomes.map((c) => `call ${c.callId}: ${c.outcome}`).join(', ')}`);
    out.push(`  found after ${ce.runsToFailure} runs, shrunk in ${ce.shrinks} steps (fast-check seed ${ce.seed}, path ${ce.path || '-'})`);
    if (p.minimal === true)
      out.push(
        `  minimal   yes: no plan with fewer faults violates it on this workload${p.exhaustive ? ' or on any the exhaustive search covered' : ''}`,
      );
    if (p.minimal === false && p.shorter)
      out.push(
        `  minimal   NO: ${plural(p.shorter.faults.length, 'fault')} suffice${p.shorter.faults.length === 1 ? 's' : ''}: ${describePlan(p.shorter.faults)} (workload ${describeWorkload(p.shorter.workload)})`,
      );
    out.push(`  reproduce ${checkCommand(r, p.property)}`);
  }
  // Real code (the wire tier) has no statechart: an empty coverage list is not printed as a heading.
  if (r.coverage?.length) out.push('', ...renderCoverage(r.coverage, `${plural(r.runs, 'run')}`, coverage));
  else out.push('', 'machine coverage: not measured (a side is real code, which has no statechart)');
  return out.join('\n') + '\n';
}
