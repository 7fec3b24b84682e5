// The `against` section as a person reads it (bench/render.ts prints it with the other sections):
// for check and explore, the command, both commits' CPU time and rate and the ratio; for compare
// --matrix full, both commits' CPU seconds per run and the ratio; or the line saying why not.
import { table } from '../reports/table.ts';
import type { Rate } from './against-rate.ts';
import { thousands } from './measure.ts';
import { B52C6B3C, C1F4702, type AgainstFigures } from './against.ts';

const n = thousands;

/** One rate: its command line, then a row per commit and their ratio. */
function rateTable(r: Rate, here: string): string[] {
  const side = (label: string, s: Rate['here']) => [
    label,
    `${n(s.perSecond)} ${r.unit}/s  (${s.cpuSeconds} s CPU; ${s.smallCpuSeconds} s at ${r.small}; whole run ${n(s.wholePerSecond)}/s)`,
  ];
  const rows = [
    [
      `${r.unit} per run (${r.small}: ${n(r.smallWork)})`,
      `${n(r.work)}${r.same ? ', the same on both' : ' — the commits answered differently'}`,
    ],
    side(here, r.here),
    side(C1F4702, r.base),
    [`${here.replace(/ \(.*/, '')} / ${C1F4702}`, `×${r.ratio}  (whole runs ×${r.wholeRatio})`],
  ];
  return [`  ${r.command}`, table(['figure', 'value'], rows, ['l', 'r'])];
}

export function renderAgainst(a: AgainstFigures): string[] {
  const out: string[] = [];
  const installed = a.installed.length ? `; installed ${a.installed.join(' and ')} in this run` : '';
  const ran = a.ran === 'source' ? ' (this checkout ran its sources through tsx: dist/ is stale, npm run build)' : '';
  if (a.check || a.explore) {
    out.push(
      '',
      `against ${C1F4702} — the same command lines on both, alternately, medians of ${a.rounds} rounds; CPU time of each CLI ` +
        `process (every thread); rate = (work − the small run's work) / (CPU − the small run's CPU), start-up left out${installed}${ran}`,
    );
    for (const r of [a.check, a.explore]) if (r) out.push(...rateTable(r, a.here));
  }
  if (a.full) {
    const f = a.full;
    out.push(
      '',
      `against ${B52C6B3C} — ${f.command}, alternately, CPU time of each run (every thread)`,
      table(
        ['figure', 'value'],
        [
          [a.here, `${f.here.map((x) => `${x} s`).join(', ')} (median ${f.hereMedian} s)`],
          [f.base, `${f.baseline.map((x) => `${x} s`).join(', ')} (median ${f.baseMedian} s)`],
          [`${a.here.replace(/ \(.*/, '')} / ${f.base}`, `×${f.ratio}`],
        ],
        ['l', 'r'],
      ),
    );
  }
  if (a.note) out.push('', `against: ${a.note}`);
  return out;
}
