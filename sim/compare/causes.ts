// A finding's cause: what a designer groups findings by. Its signature is the minimal plan's shape
// (the shrunk fault plan as the reports print it) and the mechanism read from the history (which
// step turned the first bad call silent, or loud): "stream-cut at request 2 → the pinned SSE parser
// read a cut stream as an empty result". `step` is that history entry's index, the step the
// timeline and the Mermaid diagram mark. Read from the history only; nothing is run here.
import type { HistoryEntry } from '../core/history.ts';
import { describePlan } from '../core/plan.ts';
import type { Finding } from './findings.ts';

export interface Cause {
  /** `<plan> → <mechanism>`: equal signatures are one group. */
  signature: string;
  plan: string;
  /** A stable name for the mechanism (`cut-stream-read-empty`, `json-read-as-sse`, …). */
  mechanism: string;
  /** The mechanism as a sentence. */
  how: string;
  /** Index in the finding's history of the step where the session went wrong (null: none found). */
  step: number | null;
}

type Entry = HistoryEntry & Record<string, unknown>;

const SILENT = new Set(['silent-empty', 'silent-hang']);

function mechanismOf(f: Finding): { mechanism: string; how: string; step: number | null } {
  const h = f.history as Entry[];
  if (f.kind === 'policy-error') {
    return {
      mechanism: 'policy-error',
      how: `the policy failed: ${f.properties[0]?.why.split(':')[0] ?? ''}`,
      step: h.length ? h.length - 1 : null,
    };
  }
  const silentCall = f.outcomes.find((o) => SILENT.has(o.outcome));
  const bad = silentCall ?? f.outcomes.find((o) => o.outcome !== 'ok');
  const firstFault = h.findIndex((e) => e.kind === 'fault' && e.applied);
  const fallbackStep = firstFault < 0 ? null : firstFault;
  // Silent by a tool that ran twice, not by a call's outcome: the duplicate is what went silent.
  const duplicate = silentCall ? null : duplicateOf(h, f);
  if (duplicate) return duplicate;
  if (!bad) {
    const violated = f.properties.map((p) => p.property).join(', ');
    return { mechanism: 'state', how: `${violated} violated while every call was ok`, step: changeStep(h) ?? fallbackStep };
  }
  const endAt = h.findIndex((e) => e.kind === 'end' && e.callId === bad.callId);
  const end = h[endAt] as Extract<HistoryEntry, { kind: 'end' }> | undefined;
  const req = end?.req;
  const response = h.findIndex((e) => e.kind === 'response' && e.req === req);
  const r = h[response] as Extract<HistoryEntry, { kind: 'response' }> | undefined;
  if (bad.outcome === 'silent-empty') {
    if (r?.body === 'sse' && r.complete === false) {
      return {
        mechanism: 'cut-stream-read-empty',
        how: 'the SSE parser read a cut stream as an empty result',
        step: cutStep(h, req) ?? response,
      };
    }
    const read = h.find((e) => e.kind === 'client' && e.note === 'read' && e.req === req);
    if (read && read.expected === 'sse' && read.contentType === 'application/json') {
      const narrowed = narrowingStep(h, endAt);
      const how = 'a re-initialize narrowed the session to JSON answers; the parser pinned to SSE read one as zero events';
      if (narrowed !== null) return { mechanism: 'json-read-as-sse-after-narrowing', how, step: narrowed };
      const step = response >= 0 ? response : fallbackStep;
      return { mechanism: 'json-read-as-sse', how: 'the parser pinned to SSE read a JSON answer as zero events', step };
    }
    const how = 'a call returned a result that differs from the fault-free run, with no error';
    return { mechanism: 'different-result', how, step: fallbackStep };
  }
  if (bad.outcome === 'silent-hang') {
    const awaiting = h.findIndex((e) => e.kind === 'client' && e.note === 'awaiting-progress' && e.req === req);
    if (awaiting >= 0) {
      const moved = transportStep(h, awaiting);
      const how = 'the session moved to SSE; the parser waited for inline progress that came as SSE frames, until its deadline';
      return { mechanism: 'inline-progress-awaited-on-sse', how, step: moved ?? awaiting };
    }
    if (r?.body === 'sse' && r.complete === false) {
      return {
        mechanism: 'cut-stream-hang',
        how: 'a cut stream left the call waiting until its deadline',
        step: cutStep(h, req) ?? response,
      };
    }
    return { mechanism: 'hang', how: 'the call waited until its deadline though the server had finished it', step: fallbackStep };
  }
  // Loud only: the first failed attempt's reason, without the numbers that differ between runs.
  const failed = h.find((e) => e.kind === 'client' && e.note === 'attempt-failed' && e.callId === bad.callId);
  const full = String(end && end.end === 'error' ? end.reason : (failed?.reason ?? 'deadline'));
  return { mechanism: 'loud', how: `calls fail loudly (${generalReason(full)})`, step: fallbackStep };
}

/** An error's first clause, without the session, request and call numbers that differ between cells. */
function generalReason(full: string): string {
  return full.split(/ \(|; /)[0]!.replace(/\b(s|request |call )\d+\b/g, '$1N');
}

/** A finding that violates `at-most-once` with no silent call: the side-effecting tool that ran a second
 *  time for one agent call, after the attempt that failed at the client (marked at the second run). */
function duplicateOf(h: Entry[], f: Finding): { mechanism: string; how: string; step: number | null } | null {
  if (!f.properties.some((p) => p.property === 'at-most-once')) return null;
  const idempotent = new Set(h.flatMap((e) => (e.kind === 'invoke' && e.idempotent ? [e.callId] : [])));
  const runs = new Map<number, number>();
  const step = h.findIndex((e) => {
    if (e.kind !== 'server' || e.note !== 'call-finished' || typeof e.callId !== 'number' || e.callId < 0 || idempotent.has(e.callId))
      return false;
    runs.set(e.callId, (runs.get(e.callId) ?? 0) + 1);
    return runs.get(e.callId)! > 1;
  });
  if (step < 0) return null;
  const callId = h[step]!.callId;
  let failed: Entry | undefined;
  for (let i = step - 1; i >= 0 && !failed; i--) {
    const e = h[i]!;
    if (e.kind === 'client' && e.note === 'attempt-failed' && e.callId === callId) failed = e;
  }
  const after = failed ? `the retry after a failed attempt (${generalReason(String(failed.reason))})` : 'a second attempt';
  return { mechanism: 'duplicate-execution', how: `${after} ran the tool again (duplicate execution)`, step };
}

/** The stream-cut fault that cut request `req`. */
function cutStep(h: Entry[], req: number | undefined): number | null {
  const i = h.findIndex((e) => e.kind === 'fault' && e.applied && e.fault === 'stream-cut' && e.at === req);
  return i < 0 ? null : i;
}

/** The last accepted re-initialize before `before` that dropped tools.streaming. */
function narrowingStep(h: Entry[], before: number): number | null {
  for (let i = before - 1; i >= 0; i--) {
    const e = h[i]!;
    const narrowing =
      e.kind === 'server' && e.note === 'reinitialized' && Array.isArray(e.caps) && !(e.caps as string[]).includes('tools.streaming');
    if (narrowing) return i;
  }
  return null;
}

/** The fallback or transport change the session went through before `before`. */
function transportStep(h: Entry[], before: number): number | null {
  for (let i = before - 1; i >= 0; i--) {
    const e = h[i]!;
    if ((e.kind === 'client' && e.note === 'fallback') || (e.kind === 'server' && e.note === 'transport-changed')) return i;
  }
  return null;
}

/** The first capability change a session went through (for findings with no bad call). */
function changeStep(h: Entry[]): number | null {
  const i = h.findIndex(
    (e) =>
      (e.kind === 'server' && (e.note === 'reinitialized' || e.note === 'transport-changed')) ||
      (e.kind === 'client' && e.note === 'fallback'),
  );
  return i < 0 ? null : i;
}

export function causeOf(f: Finding): Cause {
  const plan = f.plan.length === 0 ? '(no faults)' : describePlan(f.plan);
  const m = mechanismOf(f);
  return { signature: `${plan} → ${m.how}`, plan, ...m };
}

export interface CauseGroup {
  signature: string;
  plan: string;
  mechanism: string;
  how: string;
  /** Finding ids, in report order. */
  findings: string[];
  /** Cell ids, in matrix order, each once. */
  cells: string[];
  silent: boolean;
}

/** A cause group with its label as the reports number it (G1, G2, … in report order). */
export interface NumberedCauseGroup extends CauseGroup {
  label: string;
}

/** Findings grouped by cause, the groups with the most cells first (ties: first seen first), labelled G1, G2, …. */
export function numberedCauseGroups(findings: readonly (Finding & { cause?: Cause })[]): NumberedCauseGroup[] {
  const groups = new Map<string, CauseGroup & { first: number }>();
  findings.forEach((f, i) => {
    // Every finding a comparison reports carries its cause (compare/annotator.ts).
    const c = f.cause;
    if (!c) return;
    let g = groups.get(c.signature);
    if (!g) {
      g = { signature: c.signature, plan: c.plan, mechanism: c.mechanism, how: c.how, findings: [], cells: [], silent: false, first: i };
      groups.set(c.signature, g);
    }
    g.findings.push(f.id);
    if (!g.cells.includes(f.cell)) g.cells.push(f.cell);
    // A tool that ran twice for one call is silent too: the agent saw ordinary results.
    const duplicate = f.properties.some((p) => p.property === 'at-most-once');
    if (duplicate || f.outcomes.some((o) => SILENT.has(o.outcome))) g.silent = true;
  });
  return [...groups.values()]
    .sort((a, b) => b.cells.length - a.cells.length || a.first - b.first)
    .map(({ first: _first, ...g }, i) => ({ ...g, label: `G${i + 1}` }));
}
