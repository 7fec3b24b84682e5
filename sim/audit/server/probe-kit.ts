// What the probes share (probes.ts, two-callers.ts, close-cancels.ts, transport-probes.ts, session-probes.ts,
// auth-probe.ts): the outcome a probe gives, the shape
// probes.ts lists a probe in, a probe client opened and closed around a question, and the outcome of a
// probe the spec lens alone judges (its row reads not applicable: it asks no resilience question).
import type { Revision } from '../../../models/policies.ts';
import type { AuditVerdict, SpecCheck } from '../../core/audit-verdict.ts';
import type { WireServerSpec } from '../../wire/setup.ts';
import { ProbeClient } from './probe-client.ts';
import type { ToolChoice } from './tool-choice.ts';

/** What a probe gives: a resilience verdict, why, the evidence line, and the spec checks it judged. */
export interface ProbeOutcome {
  verdict: AuditVerdict;
  why: string;
  evidence: string;
  checks: SpecCheck[];
}

/** A probe as probes.ts lists it. */
export interface TransportProbe {
  name: string;
  asks: string;
  revisions: readonly Revision[];
  run(
    server: WireServerSpec,
    revisions: readonly Revision[],
    tools?: ToolChoice,
  ): Promise<{ verdict: AuditVerdict; why: string; evidence: string; checks: SpecCheck[] }>;
}

const SPEC_ONLY = 'a spec probe (no fault): the spec lens judges it';

export async function withClient<T>(server: WireServerSpec, f: (c: ProbeClient) => Promise<T>): Promise<T> {
  const c = new ProbeClient(server);
  try {
    return await f(c);
  } finally {
    await c.close();
  }
}

export function specOnly(checks: SpecCheck[]): ProbeOutcome {
  return { verdict: 'not applicable', why: SPEC_ONLY, evidence: checks.map((c) => c.evidence).join('; '), checks };
}
