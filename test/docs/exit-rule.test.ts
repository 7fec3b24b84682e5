// The audit's exit rule is one text (sim/core/audit-verdict.ts's EXIT_RULE): `audit --help` prints it,
// and docs/auditing.md quotes it verbatim (line breaks aside), so neither can drift from the code that
// computes the exit (passes()).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_RULE } from '../../sim/core/audit-verdict.ts';
import { auditHelp } from '../../sim/cli/commands/audit-help.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("the audit's exit rule", () => {
  it('is in audit --help and docs/auditing.md word for word', () => {
    expect(flat(auditHelp())).toContain(flat(EXIT_RULE));
    expect(flat(readFileSync(`${ROOT}docs/auditing.md`, 'utf8'))).toContain(flat(EXIT_RULE));
  });
});
