// The audit as JUnit XML, so any CI shows each scenario as a test case: a non-pass verdict is a
// <failure> (its type the verdict), `not applicable` a <skipped>. Times are not known here (the
// audit runs on virtual time): every testcase says time="0".
import type { AuditResult } from '../sim/audit/runner.ts';
import { auditSubject } from './audit-text.ts';
import { passes } from '../sim/core/audit-verdict.ts';

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function renderAuditJunit(a: AuditResult): string {
  const failures = a.scenarios.filter((s) => !passes(s.verdict)).length;
  const skipped = a.scenarios.filter((s) => s.verdict === 'not applicable').length;
  const suite = xmlEscape(`mcp-faultsim audit ${auditSubject(a)}`);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suite}" tests="${a.scenarios.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="${suite}" tests="${a.scenarios.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
  ];
  for (const s of a.scenarios) {
    const open = `    <testcase classname="audit" name="${xmlEscape(s.name)}" time="0"`;
    if (s.verdict === 'pass') lines.push(`${open}/>`);
    else if (s.verdict === 'not applicable') lines.push(`${open}>`, `      <skipped message="${xmlEscape(s.why)}"/>`, '    </testcase>');
    else {
      const body = [`plan: ${s.plan}`, `evidence: ${s.evidence}`, `reproduce: ${s.reproduce.audit}`].join('\n');
      lines.push(
        `${open}>`,
        `      <failure type="${s.verdict}" message="${xmlEscape(`${s.verdict}: ${s.why}`)}">${xmlEscape(body)}</failure>`,
        '    </testcase>',
      );
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
