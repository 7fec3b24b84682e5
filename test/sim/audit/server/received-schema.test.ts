// Every message the audit's model client receives during a fault scenario is checked against the
// revision's schema, not only the probes' (issue 37 item 7): the framing fixture with
// --malformed-calls sends every tools/call answer with a content item of an unknown type; the scenario's
// row then carries a message-schema finding that names the field. The same server without the flag,
// and the official SDKs in process, give no such finding.
import { describe, expect, it } from 'vitest';
import { run } from '../../cli/run.ts';

import { FRAMING, FRAMING_ECHO } from '../../../fixtures/servers.ts';

type Check = { requirement: string; verdict: string; evidence: string };
type Audit = { scenarios: { name: string; verdict: string; spec?: { verdict: string; checks: Check[] } }[] };

async function audit(...argv: string[]): Promise<Audit> {
  const r = await run('audit', '--json', '--quiet', ...argv);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Audit;
}

const schemaChecks = (a: Audit, name: string) =>
  a.scenarios.find((s) => s.name === name)!.spec!.checks.filter((c) => c.requirement.endsWith('/message-schema'));

describe("the model client's messages, checked against the schema in every scenario", () => {
  it('a malformed tools/call answer during a fault scenario is a finding naming the field', async () => {
    const a = await audit('--serve', `${FRAMING} --malformed-calls`, ...FRAMING_ECHO, '--only', 'http-502-call');
    const row = a.scenarios[0]!;
    expect(row.verdict).toBe('pass');
    expect(row.spec!.verdict).toBe('violates');
    const [finding] = schemaChecks(a, 'http-502-call');
    expect(finding!.requirement).toBe('2025-11-25/message-schema');
    expect(finding!.evidence).toMatch(
      /^\d+ of the \d+ messages received in this scenario's runs malformed against @modelcontextprotocol\/sdk 1\.32\.2: the answer to tools\/call → result\.content\[0\]\.type: /,
    );
  }, 60_000);

  it('well-formed messages add no finding: the same server without the flag, and the SDKs in process', async () => {
    const plain = await audit('--serve', FRAMING, ...FRAMING_ECHO, '--only', 'http-502-call');
    expect(schemaChecks(plain, 'http-502-call')).toEqual([]);
    for (const server of ['sdk-sse', 'sdk2-sse,protocol=dual']) {
      const a = await audit('--server', server);
      const found = a.scenarios.filter((s) => s.name !== 'message-schema').flatMap((s) => schemaChecks(a, s.name));
      expect(found).toEqual([]);
    }
  }, 60_000);
});
