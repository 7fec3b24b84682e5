// The audit as JUnit XML, so any CI shows each scenario as a test case: a verdict that fails the
// audit (passes()) is a <failure> (its type the verdict), any other non-pass a <skipped> (`not
// tested`, `protocol hazard`, `not applicable`); each spec check is a test case of class `audit.spec`, a violation a <failure type="spec-violation">. Times are not known here (the
// audit runs on virtual time): every testcase says time="0".
import type { AuditResult } from '../sim/audit/server/runner.ts';
import { auditSubject } from './audit-text.ts';
import { passes } from '../sim/core/audit-verdict.ts';

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A spec check as its own test case: `violates` a <failure type="spec-violation">, conforms a pass, the rest skipped. */
function specCases(a: AuditResult): { lines: string[]; tests: number; failures: number; skipped: number } {
  const lines: string[] = [];
  let failures = 0;
  let skipped = 0;
  let tests = 0;
  for (const s of a.scenarios)
    for (const c of s.spec?.checks ?? []) {
      tests++;
      const open = `    <testcase classname="audit.spec" name="${xmlEscape(`${s.name} ${c.requirement}`)}" time="0"`;
      if (c.verdict === 'conforms') lines.push(`${open}/>`);
      else if (c.verdict === 'violates') {
        failures++;
        const body = [c.quote, `evidence: ${c.evidence}`, `see: ${c.url}`, `reproduce: ${s.reproduce.audit}`].join('\n');
        lines.push(
          `${open}>`,
          `      <failure type="spec-violation" message="${xmlEscape(`${c.level} ${c.requirement}: ${c.evidence}`)}">${xmlEscape(body)}</failure>`,
          '    </testcase>',
        );
      } else {
        skipped++;
        lines.push(`${open}>`, `      <skipped message="${xmlEscape(`${c.verdict}: ${c.evidence}`)}"/>`, '    </testcase>');
      }
    }
  return { lines, tests, failures, skipped };
}

export function renderAuditJunit(a: AuditResult): string {
  const spec = specCases(a);
  const failures = a.scenarios.filter((s) => !passes(s.verdict)).length + spec.failures;
  // A row that judged nothing, or a protocol hazard, lets the audit pass: skipped, its verdict in the message.
  const skipped = a.scenarios.filter((s) => s.verdict !== 'pass' && passes(s.verdict)).length + spec.skipped;
  const tests = a.scenarios.length + spec.tests;
  const suite = xmlEscape(`mcp-faultsim audit ${auditSubject(a)}`);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suite}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="${suite}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">`,
  ];
  for (const s of a.scenarios) {
    const open = `    <testcase classname="audit" name="${xmlEscape(s.name)}" time="0"`;
    if (s.verdict === 'pass') lines.push(`${open}/>`);
    else if (passes(s.verdict)) {
      const message = s.verdict === 'not applicable' ? s.why : `${s.verdict}: ${s.why}`;
      lines.push(`${open}>`, `      <skipped message="${xmlEscape(message)}"/>`, '    </testcase>');
    } else {
      const body = [`plan: ${s.plan}`, `evidence: ${s.evidence}`, `reproduce: ${s.reproduce.audit}`].join('\n');
      lines.push(
        `${open}>`,
        `      <failure type="${s.verdict}" message="${xmlEscape(`${s.verdict}: ${s.why}`)}">${xmlEscape(body)}</failure>`,
        '    </testcase>',
      );
    }
  }
  lines.push(...spec.lines, '  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
