// An exhaustive exploration as a person reads it: what was covered (depth, distinct states, plans),
// then per property "holds up to depth k" or its shortest counterexample, then machine coverage.
import { formatClient, formatServer } from '../models/policies.ts';
import type { Exhaustive, Exploration } from '../sim/search/exhaustive/exhaustive.ts';
import { describePlan } from '../sim/core/plan.ts';
import { describeWorkload } from '../sim/core/workload.ts';
import { renderCoverage } from './coverage-text.ts';
import { table } from './table.ts';

const n = (x: number) => x.toLocaleString('en-US');

/** Where the exploration's workloads are shorter than `check`'s, what a "holds" covers and what it
 *  does not, so that it is never read as contradicting a `check` that finds a violation. */
export function shorterThanCheck(longest: number, check: { calls: number; faults: number }): string {
  if (longest >= check.calls) return '';
  return `, only on workloads of up to ${longest} call${longest === 1 ? '' : 's'} (check draws up to ${check.calls} calls and ${check.faults} faults, and may find what this does not)`;
}

/** One line for a property's exhaustive verdict; `bounds`: the exploration's longest workload and what check draws. */
export function describeExhaustive(x: Exhaustive, bounds?: { longest: number; check: { calls: number; faults: number } }): string {
  if (x.shortest) {
    const k = x.shortest.faults.length;
    return `violated, shortest with ${k} fault${k === 1 ? '' : 's'}: ${describePlan(x.shortest.faults)} (workload: ${describeWorkload(x.shortest.workload)})`;
  }
  const vacuously = x.verdict === 'vacuous' ? ', vacuously: its situation was never reached' : '';
  const shorter = bounds ? shorterThanCheck(bounds.longest, bounds.check) : '';
  return `holds up to depth ${x.depth} (${n(x.states)} distinct states, ${n(x.plans)} plans)${shorter}${vacuously}`;
}

/** `coverage`: list every unreached state and transition (`--coverage`), not only the summary line. */
export function renderExplore(e: Exploration, coverage = false): string {
  const out: string[] = [];
  out.push(`server     ${formatServer(e.combination.server)}`);
  out.push(`client     ${formatClient(e.combination.client)}`);
  out.push(`faults     ${e.faults.join(', ')}`);
  const longest = Math.max(...e.workloads.map((w) => w.length));
  out.push(
    `workloads  ${e.workloads.length} sequential workload${e.workloads.length === 1 ? '' : 's'} of up to ${longest} call${longest === 1 ? '' : 's'}: ${e.workloads.map(describeWorkload).join(' | ')}`,
  );
  const byFaults = e.plansByFaults.map(n).join(' + ');
  out.push(
    `explored   every plan of up to ${e.depth} fault${e.depth === 1 ? '' : 's'}: ${n(e.states)} distinct states covering ${n(e.plans)} plans (${byFaults} by number of faults)`,
  );
  if (!e.complete)
    out.push(
      `           INCOMPLETE: the state budget (--max-states) stopped it; verdicts hold only to depth ${Math.min(...e.results.map((r) => r.depth))}, not ${e.depth}`,
    );
  if (e.budgetExhausted > 0) out.push(`           ${e.budgetExhausted} run(s) hit the world's step budget`);
  out.push('');
  const fewest = (r: Exhaustive) => (r.shortest ? String(r.shortest.faults.length) : '-');
  const shorter = longest < e.check.calls;
  const verdictWord = (r: Exhaustive) => (r.verdict === 'violated' ? 'VIOLATED' : shorter ? `${r.verdict} (≤${longest} calls)` : r.verdict);
  const rows = e.results.map((r) => [r.property, verdictWord(r), fewest(r)]);
  out.push(table(['property', 'verdict', 'fewest faults'], rows, ['l', 'l', 'r']));
  for (const r of e.results) {
    out.push('', `${r.property}: ${describeExhaustive(r, { longest, check: e.check })}`);
    if (r.shortest?.why) out.push(`  ${r.shortest.why}`);
  }
  if (e.coverage.length) out.push('', ...renderCoverage(e.coverage, 'the exploration', coverage));
  return out.join('\n') + '\n';
}
