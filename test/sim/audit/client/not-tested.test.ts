// A client scenario whose fault did not land where it judges reads `not tested` for the agent and the
// library, with why, never `not applicable` (which the --clients matrix leaves out): the fake client's
// order-drift mode (a marker file for its first process) sends a tools/list before each call from its second process on, so the fault placed
// on the fault-free run's tools/call lands on a tools/list in every faulted run.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveGroups } from '../../../../sim/wire/process/process-groups.ts';
import { run, tempDir } from '../../cli/run.ts';

describe('a client scenario whose fault never lands', () => {
  it('reads not tested for both verdicts, says why, and does not fail the exit', async () => {
    const mark = join(tempDir('order-drift'), 'first-run');
    const argv = ['audit', '--client-cmd', `node test/fixtures/clients/fake-client.mjs order-drift ${mark}`];
    const r = await run(...argv, '--revision', '2025-11-25', '--only', 'stream-cut-call', '--json', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout).scenarios.find((x: { name: string }) => x.name === 'stream-cut-call');
    expect([s.verdict, s.library.verdict]).toEqual(['not tested', 'not tested']);
    expect(s.why).toMatch(/requests came in another order in 3 faulted runs: request \d+ carried tools\/list/);
    expect(liveGroups()).toEqual([]);
  }, 120_000);
});
