// Machine coverage as a person reads it: per machine, states and transitions reached out of all
// in its definition, then every unreached one (a behaviour no verdict above says anything about).
import type { MachineCoverage } from '../sim/world/coverage.ts';

/** The summary line, and with `detail` (`--coverage`) every unreached state and transition. */
export function renderCoverage(coverage: readonly MachineCoverage[], over: string, detail = true): string[] {
  const summary = coverage
    .map((m) => `${m.machine} ${m.states.reached}/${m.states.total} states, ${m.transitions.reached}/${m.transitions.total} transitions`)
    .join('; ');
  const unreached = coverage.reduce((n, m) => n + m.states.unreached.length + m.transitions.unreached.length, 0);
  const hint = !detail && unreached > 0 ? ` (--coverage lists the ${unreached} never reached)` : '';
  const out = [`coverage over ${over}: ${summary}${hint}`];
  if (!detail) return out;
  for (const m of coverage) {
    for (const s of m.states.unreached) out.push(`  ${m.machine} never in state      ${s}`);
    for (const t of m.transitions.unreached) out.push(`  ${m.machine} never took         ${t}`);
  }
  return out;
}
