// The comparison as JSON: everything the other reports show, as data. Findings past the detail
// limit keep their plan and verdicts but not their history (their counterexample files hold it),
// so that a full matrix stays a file a person can open. Byte-identical for the same inputs apart
// from the top-level `timing`, which is always last.
import type { Comparison } from '../compare/compare.ts';
import { formatJson } from './json-format.ts';

export function renderJson(c: Comparison, details: number): string {
  const { timing, ...rest } = c;
  const findings = c.findings.map((f, i) => (i < details ? f : { ...f, history: null }));
  return `${formatJson({ ...rest, findings, ...(timing ? { timing } : {}) })}\n`;
}

/** The JSON without its `timing`: what must be identical between two runs of the same inputs. */
export function withoutTiming(json: string): string {
  const { timing: _timing, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify(rest);
}
