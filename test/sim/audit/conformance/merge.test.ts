// The merge of the conformance suite's checks into the audit's spec lens, on runs written here in the
// suite's own output format (checks.json folders and its stdout): a requirement both tools judge and
// agree on, one where they disagree, the suite's known false passes (a missing tool counted as a pass,
// a 401 counted as DNS-rebinding protection), a failure that only shows the suite's fixture missing,
// an unscored scenario; and where a missing install is one line naming the install command.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../../../../sim/audit/audit-row.ts';
import { suiteNonPasses } from '../../../../sim/audit/conformance/merge.ts';
import { findSuite, SuiteMissing } from '../../../../sim/audit/conformance/install.ts';
import { mergeConformance, suiteRefs } from '../../../../sim/audit/conformance/merge.ts';
import { relayedHeaders } from '../../../../sim/audit/conformance/relay.ts';
import { DID_NOT_RUN, readSuiteRun, scenarioOfFolder, SuiteOutputError } from '../../../../sim/audit/conformance/suite-output.ts';
import { tempDir } from '../../cli/run.ts';

const STDOUT = `Running requirements 2025-11-25 (5 scenarios) against http://localhost:1/mcp

=== SUMMARY ===
✗ dns-rebinding-protection: 1 passed, 1 failed

Not scored for 2025-11-25: 1 scenario(s) run, 1 failing. These do not affect conformance.
  ✗ server-session-lifecycle (added-after-release)
`;

const folder = (scenario: string) => `server-${scenario}-2026-12-05T12-04-27-109Z`;
const checks = (...cs: object[]) => JSON.stringify(cs);

/** A run of the suite: the server rejects a foreign Host/Origin with `rebinding` status, has tools `tools`. */
function run(rebinding: number, tools: string[]) {
  const folders: [string, string][] = [
    [
      folder('dns-rebinding-protection'),
      checks(
        {
          id: 'localhost-host-rebinding-rejected',
          status: rebinding >= 400 && rebinding < 500 ? 'SUCCESS' : 'FAILURE',
          description: 'Server rejects requests with non-localhost Host/Origin headers',
          details: { statusCode: rebinding },
        },
        { id: 'localhost-host-valid-accepted', status: 'SUCCESS', description: 'valid host accepted' },
      ),
    ],
    [folder('tools-list'), checks({ id: 'tools-list', status: 'SUCCESS', description: 'lists tools', details: { tools } })],
    [
      folder('tools-call-simple-text'),
      checks(
        {
          id: 'tools-call-simple-text',
          status: 'SUCCESS',
          description: 'simple text',
          details: { result: { content: [{ type: 'text', text: 'MCP error -32602: Tool test_simple_text not found' }], isError: true } },
        },
        { id: 'wire-schema-valid', status: 'SUCCESS', description: 'schema' },
      ),
    ],
    [folder('tools-call-image'), checks({ id: 'tools-call-image', status: 'FAILURE', errorMessage: 'No image content found' })],
    [
      folder('server-session-lifecycle'),
      checks({
        id: 'server-session-terminated-returns-404',
        status: 'FAILURE',
        errorMessage: 'Expected 404 on terminated session ID, got 400',
      }),
    ],
    ['not-a-result-folder', '[]'],
  ];
  return readSuiteRun('2025-11-25', 'conformance server --url <relay to the server> --requirements 2025-11-25', STDOUT, folders);
}

/** An audit row of the probe `name` whose spec lens reads `verdict` on a 2025-11-25 requirement. */
const row = (name: string, verdict: 'violates' | 'conforms', requirement: string): ScenarioResult =>
  ({
    name,
    verdict: 'not applicable',
    spec: { verdict, checks: [{ requirement: `2025-11-25/${requirement}`, level: 'MUST', quote: '', url: '', verdict, evidence: '' }] },
  }) as unknown as ScenarioResult;

describe('the suite output, read back', () => {
  it('takes the scenario from the folder name and the unscored ones from stdout', () => {
    expect(scenarioOfFolder('server-server-initialize-2026-12-05T05-34-16-109Z')).toBe('server-initialize');
    expect(scenarioOfFolder('results')).toBeNull();
    const r = run(200, []);
    expect(r.scenarios.map((s) => [s.name, s.scored])).toEqual([
      ['dns-rebinding-protection', true],
      ['server-session-lifecycle', false],
      ['tools-call-image', true],
      ['tools-call-simple-text', true],
      ['tools-list', true],
    ]);
    expect(r.scenarios[1]!.unscoredWhy).toBe('added-after-release');
  });

  it('a scenario the suite could not run (no checks.json) is one failed check, with the error the suite printed', () => {
    // As the suite 0.2.0-alpha.12 leaves it when a server answers its first request with no JSON-RPC
    // (checked by hand: a 502 text/plain server, `conformance server --requirements 2026-07-28`).
    const stderr =
      "Failed to run scenario tools-list: Error: HTTP 502: expected a JSON-RPC result for 'tools/list', got non-JSON body\n    at l (index.js:1128:6843)\n";
    const r = readSuiteRun(
      '2025-11-25',
      'x',
      STDOUT,
      [
        [folder('tools-list'), null],
        [folder('dns-rebinding-protection'), null],
      ],
      stderr,
    );
    expect(r.scenarios.map((s) => [s.name, s.scored, s.checks])).toEqual([
      [
        'dns-rebinding-protection',
        true,
        [
          {
            id: DID_NOT_RUN,
            status: 'FAILURE',
            message: 'the suite could not run this scenario: it wrote no checks.json and named no error',
          },
        ],
      ],
      [
        'tools-list',
        true,
        [
          {
            id: DID_NOT_RUN,
            status: 'FAILURE',
            message: "the suite could not run this scenario: HTTP 502: expected a JSON-RPC result for 'tools/list', got non-JSON body",
          },
        ],
      ],
    ]);
  });

  it('a stdout that did not run the requirement set is an error, not an empty run', () => {
    expect(() => readSuiteRun('2025-11-25', 'x', "error: unknown option '--requirements'\n", [])).toThrow(SuiteOutputError);
  });

  it("reads the requirement table's suite column: scenario/check, a bare scenario, a bare check of the scenario before; none for client legs", () => {
    expect(suiteRefs('`a-b/c-d` — weaker')).toEqual([{ scenario: 'a-b', check: 'c-d' }]);
    expect(suiteRefs('`dns-rebinding-protection` (both revisions)')).toEqual([{ scenario: 'dns-rebinding-protection', check: null }]);
    expect(suiteRefs('`s/x`, `y-*`')).toEqual([
      { scenario: 's', check: 'x' },
      { scenario: 's', check: 'y-*' },
    ]);
    expect(suiteRefs('client leg: `http-standard-headers`')).toEqual([]);
  });
});

describe('the merge by requirement', () => {
  it('both tools fail the Origin MUST: agree; a missing tool is a false pass, a missing fixture not testable, an unscored failure never counted', () => {
    const lens = mergeConformance([row('foreign-origin', 'violates', 'origin-403')], [run(200, ['echo'])], 'suite 1');
    const origin = lens.requirements.find((r) => r.slug === 'security.origin-403')!;
    expect(origin).toMatchObject({ audit: 'violates', suite: 'fail', agreement: 'agree', auditRows: ['foreign-origin'] });
    const only = Object.fromEntries(lens.suiteOnly.map((c) => [`${c.scenario}/${c.check}`, c.verdict]));
    expect(only['tools-call-simple-text/tools-call-simple-text']).toBe('false pass');
    expect(only['tools-call-image/tools-call-image']).toBe('not testable');
    const lifecycle = lens.requirements.find((r) => r.slug === 'session.404-after-terminate')!;
    expect(lifecycle).toMatchObject({ suite: 'fail', scored: false });
    // Scored: the rebinding failure only (the image failure judged the suite's fixture; the lifecycle one is unscored).
    expect(lens.counts).toMatchObject({ fail: 1, falsePass: 1, notTestable: 1, disagree: 0 });
    expect(lens.conforms).toBe(false);
    expect(suiteNonPasses(lens)).toEqual([
      { id: 'conformance 2025-11-25 dns-rebinding-protection', requirement: 'localhost-host-rebinding-rejected', reason: '', upstream: '' },
    ]);
  });

  it("a 401 to a foreign Host is the suite's pass, a known false pass; where the audit found the violation the row says they disagree", () => {
    const lens = mergeConformance([row('foreign-origin', 'violates', 'origin-403')], [run(401, ['test_simple_text'])], 'suite 1');
    const origin = lens.requirements.find((r) => r.slug === 'security.origin-403')!;
    expect(origin.suite).toBe('false pass');
    expect(origin.agreement).toBe('disagree');
    expect(origin.note).toMatch(/known false pass; the audit violates/);
    expect(origin.suiteChecks[0]!.why).toMatch(/got 401.*authentication, not Origin validation.*403/);
    expect(lens.conforms).toBe(true);
  });

  it('the audit conforms where the suite fails: the row says the tools disagree', () => {
    const lens = mergeConformance([row('foreign-origin', 'conforms', 'origin-403')], [run(200, [])], 'suite 1');
    const origin = lens.requirements.find((r) => r.slug === 'security.origin-403')!;
    expect(origin).toMatchObject({ agreement: 'disagree', note: 'the tools disagree: the audit conforms, the suite reads fail' });
    expect(lens.counts.disagree).toBeGreaterThanOrEqual(1);
  });
});

describe('the relay and the install', () => {
  it("swaps the relay's own Host and Origin for the server's, keeps a foreign one, adds the credentials", () => {
    const target = new URL('http://127.0.0.1:4000/mcp');
    const upstream = { headers: { authorization: 'Bearer t' }, remote: false };
    expect(relayedHeaders({ host: 'localhost:9', origin: 'http://localhost:9' }, ['localhost:9'], target, upstream)).toEqual({
      host: '127.0.0.1:4000',
      origin: 'http://127.0.0.1:4000',
      authorization: 'Bearer t',
    });
    expect(
      relayedHeaders({ host: 'evil.example.com', origin: 'http://evil.example.com' }, ['localhost:9'], target, upstream),
    ).toMatchObject({
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
  });

  it('a missing suite, or a Node 20 without .ci/node24, is one line with the command that installs it', () => {
    const root = tempDir('no-suite');
    expect(() => findSuite(root)).toThrow(SuiteMissing);
    expect(() => findSuite(root)).toThrow(`install it with: npm ci --prefix ${join(root, '.ci/conformance')}`);
    const pkg = join(root, '.ci/conformance/node_modules/@modelcontextprotocol/conformance');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ version: '0.2.0-alpha.12', bin: { conformance: 'dist/index.js' } }));
    expect(() => findSuite(root, '20.20.2')).toThrow(`npm ci --prefix ${join(root, '.ci/node24')}`);
    expect(findSuite(root, '24.9.0').script).toBe(join(pkg, 'dist/index.js'));
  });
});
