// The fixes the mitigation finder found, per cause group (compare/causes.ts): for every silent group
// it worked on, each single knob change (and each pair its pair search found) with how many of the
// group's findings it makes hold and the worst way it holds, ranked (core/fixes-table.ts, which the
// Markdown, HTML and terminal draw "What changes what" with too). compare.json carries them as `fixes`,
// so that a designer can script a decision. Read from the findings alone.
import { KNOB_TABLES } from '../../models/knobs.ts';
import { rankedFixes, whatChangesWhat, type RankedFix } from '../core/fixes-table.ts';
import type { ReportedFinding } from './cell-runner.ts';
import type { NumberedCauseGroup } from './causes.ts';

/** The proposal a change's knob is (models/knobs.ts `proposal`), or null for a knob of the protocol. */
export function proposalOf(change: string): string | null {
  const m = /^(server|client)\.([^=+-]+)/.exec(change);
  const spec = m ? (KNOB_TABLES[m[1] as 'server' | 'client'][m[2]!] as { proposal?: string } | undefined) : undefined;
  return spec?.proposal ?? null;
}

/** compare.json's `fixes`: per silent group the finder worked on, in group order, its ranked fixes. */
export interface GroupFixes {
  group: string;
  mechanism: string;
  /** The group's findings, and how many of them the finder searched (`of` of each fix). */
  findings: number;
  searched: number;
  /** Ranked; `proposal`: the knob is outside the protocol as published (models/knobs.ts). Empty:
   *  no single change or found pair makes any of them hold. */
  fixes: (RankedFix & { proposal: string | null })[];
}

export function fixesByGroup(findings: readonly ReportedFinding[], groups: readonly NumberedCauseGroup[]): GroupFixes[] {
  const t = whatChangesWhat(findings, groups);
  const byId = new Map(findings.map((f) => [f.id, f]));
  return t.groups.map((g) => ({
    group: g.label,
    mechanism: g.mechanism,
    findings: g.findings.length,
    searched: g.findings.filter((id) => byId.get(id)?.mitigations).length,
    fixes: rankedFixes(t.rows, g).map((x) => ({ ...x, proposal: proposalOf(x.change) })),
  }));
}
