// A MAY is never read as a defect, by the spec lens or by the resilience verdict (issue 37 item 7): a
// server that speaks 2025-11-25 and 2026-07-28 MAY take a request without MCP-Protocol-Version as
// 2025-03-26, so the Python SDK's stateless server serving it is no `silent` row (the 400 the
// scenario expects binds servers of 2026-07-28 alone), and its spec check is `not tested`, never
// `violates`. Needs the project's Python venv (.ci/python-venv.sh): fails, never skips, without it.
import { describe, expect, it } from 'vitest';
import { auditJson } from '../../../fixtures/audit-cli.ts';
import { PYTHON_SERVER, pythonMissing } from '../../../fixtures/servers.ts';

type Audit = { revisions: string[]; scenarios: { name: string; verdict: string; spec?: { verdict: string } }[] };

describe('a MAY of a dual-revision server', () => {
  it('the Python stateless server served a request without MCP-Protocol-Version: pass, spec not tested', async () => {
    expect(pythonMissing()).toBeNull();
    const a = await auditJson<Audit>('--serve', `${PYTHON_SERVER} --stateless`, '--tools', 'faultsim', '--only', 'strip-protocol-version');
    expect(a.revisions).toEqual(['2025-11-25', '2026-07-28']);
    expect(a.scenarios[0]).toMatchObject({ verdict: 'pass', spec: { verdict: 'not tested' } });
  }, 90_000);
});
