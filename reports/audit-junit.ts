// The audit as JUnit XML, so any CI shows each scenario as a test case: a row the exit rule fails
// (its verdict, or a client row's library verdict) is a <failure> (its type that verdict), any other
// non-pass a <skipped> with its verdict (not applicable, not tested, protocol hazard); each spec check
// is a test case of class `audit.spec`, a violation a <failure type="spec-violation">; with --conformance
// each check of the official suite is one of class `audit.conformance`. Times are not known here (the
// audit runs on virtual time): every testcase says time="0".
import type { AuditResult } from '../sim/audit/server/runner.ts';
import { auditSubject, rowPasses } from './audit-text.ts';
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
  // `--conformance`: each check of the suite, once (class audit.conformance): a scored failure fails; a
  // false pass, an untestable, unscored or warning check is skipped with why.
  const seen = new Set<string>();
  const suite = a.conformance;
  const all = suite
    ? [...suite.requirements.flatMap((r) => r.suiteChecks.map((c) => ({ ...c, revision: r.revision }))), ...suite.suiteOnly]
    : [];
  for (const c of all) {
    const name = `${c.revision} ${c.scenario}/${c.check}`;
    if (seen.has(name)) continue;
    seen.add(name);
    tests++;
    const open = `    <testcase classname="audit.conformance" name="${xmlEscape(name)}" time="0"`;
    if (c.verdict === 'pass' && c.scored) lines.push(`${open}/>`);
    else if (c.verdict === 'fail' && c.scored) {
      failures++;
      lines.push(
        `${open}>`,
        `      <failure type="spec-violation" message="${xmlEscape(c.why)}">${xmlEscape(c.why)}</failure>`,
        '    </testcase>',
      );
    } else {
      skipped++;
      lines.push(
        `${open}>`,
        `      <skipped message="${xmlEscape(`${c.verdict}${c.scored ? '' : ' (not scored)'}: ${c.why}`)}"/>`,
        '    </testcase>',
      );
    }
  }
  return { lines, tests, failures, skipped };
}

export function renderAuditJunit(a: AuditResult): string {
  const spec = specCases(a);
  const failures = a.scenarios.filter((s) => !rowPasses(s)).length + spec.failures;
  // A row that judged nothing, or a protocol hazard, lets the audit pass: skipped, its verdict in the message.
  const skipped = a.scenarios.filter((s) => rowPasses(s) && s.verdict !== 'pass').length + spec.skipped;
  const tests = a.scenarios.length + spec.tests;
  const suite = xmlEscape(`mcp-faultsim audit ${auditSubject(a)}`);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${suite}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="${suite}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">`,
  ];
  for (const s of a.scenarios) {
    const name = s.revision && a.client !== undefined ? `${s.name} ${s.revision}` : s.name;
    const open = `    <testcase classname="audit" name="${xmlEscape(name)}" time="0"`;
    // A client row fails on its agent verdict or its library verdict, whichever the exit rule counts.
    const lib = s.library;
    const failing = !passes(s.verdict) ? s.verdict : lib && !passes(lib.verdict) ? lib.verdict : null;
    if (failing === null && s.verdict !== 'pass') {
      const message = s.verdict === 'not applicable' ? s.why : `${s.verdict}: ${s.why}`;
      lines.push(`${open}>`, `      <skipped message="${xmlEscape(message)}"/>`, '    </testcase>');
    } else if (failing === null) lines.push(`${open}/>`);
    else {
      const libLine = lib ? [`library: ${lib.verdict} (${lib.behaviour}): ${lib.why}`, `library evidence: ${lib.evidence}`] : [];
      const body = [
        `plan: ${s.plan}`,
        `agent: ${s.verdict}: ${s.why}`,
        `evidence: ${s.evidence}`,
        ...libLine,
        `reproduce: ${s.reproduce.audit}`,
      ].join('\n');
      const message = lib ? `agent ${s.verdict}, library ${lib.verdict}: ${passes(s.verdict) ? lib.why : s.why}` : `${s.verdict}: ${s.why}`;
      lines.push(
        `${open}>`,
        `      <failure type="${failing}" message="${xmlEscape(message)}">${xmlEscape(body)}</failure>`,
        '    </testcase>',
      );
    }
  }
  lines.push(...spec.lines, '  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
