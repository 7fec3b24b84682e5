// The comparison as JSON: everything the other reports show, as data. Findings past the detail
// limit keep their plan and verdicts but not their history (their counterexample files hold it),
// so that a full matrix stays a file a person can open. Byte-identical for the same inputs apart
// from the top-level `timing`, which is always last.
import type { Comparison } from '../sim/compare/compare.ts';
import { writeJson } from './json-format.ts';

export function renderJson(c: Comparison, details: number): string {
  const out: string[] = [];
  writeComparisonJson(c, details, (s) => out.push(s));
  return out.join('');
}

/** `renderJson`, handed to `write` in pieces (a full matrix's report is tens of megabytes). */
export function writeComparisonJson(c: Comparison, details: number, write: (piece: string) => void): void {
  const { timing, ...rest } = c;
  // Not `{ ...f, history: null }`: a spread reads a model-world finding's history, which runs it again.
  const findings = c.findings.map((f, i) => (i < details ? f : withoutHistory(f)));
  writeJson({ ...rest, findings, ...(timing ? { timing } : {}) }, write);
  write('\n');
}

/** A plain copy of `f` with no history, made without reading `f.history`: a model-world finding's is
 *  run again when read (compare/findings.ts). Key order is `f`'s. */
function withoutHistory(f: object): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(f)) o[k] = k === 'history' ? null : (f as Record<string, unknown>)[k];
  return o;
}
