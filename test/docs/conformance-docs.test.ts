// docs/auditing.md's section on `audit --conformance` names the pinned suite, the command that installs
// it, and how many requirements both tools judge: each checked against what the audit does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUITE_PACKAGE, SUITE_VERSION } from '../../sim/audit/conformance/install.ts';
import { suiteRefs } from '../../sim/audit/conformance/merge.ts';
import { DID_NOT_RUN } from '../../sim/audit/conformance/suite-output.ts';
import { TRANSPORT_REQUIREMENTS } from '../../sim/audit/requirements.ts';

const doc = readFileSync(new URL('../../docs/auditing.md', import.meta.url), 'utf8');
const pin = JSON.parse(readFileSync(new URL('../../.ci/conformance/package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

describe("docs/auditing.md's audit --conformance section", () => {
  it('names the version the audit pins and .ci/conformance installs', () => {
    expect(pin.dependencies[SUITE_PACKAGE]).toBe(SUITE_VERSION);
    expect(doc).toContain(`\`${SUITE_PACKAGE}\` ${SUITE_VERSION} (pinned in\n\`.ci/conformance/package.json\``);
  });

  it('counts the requirements both tools can judge as the merge does', () => {
    const named = TRANSPORT_REQUIREMENTS.filter((r) => r.binds !== 'client' && suiteRefs(r.suite).length);
    const both = named.filter((r) => r.probes.length);
    expect(doc).toContain(
      `${named.length} requirements of the table name a server check of the suite; ${both.length} of them are also judged by a probe or scenario of the audit.`,
    );
  });

  it('names the failed check of a scenario the suite could not run as the reader writes it', () => {
    expect(doc.replace(/\s+/g, ' ')).toContain(`as one failed check, \`${DID_NOT_RUN}\`, with the error the suite printed`);
  });
});
