// The served process on its own: restarts serialized (two in flight each get a fresh process, one at
// a time), a booted spare taken over at the second restart, a process that exits on its own reported
// as a failure, and stop() leaving nothing of any group it started.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { liveGroups } from '../../../../sim/wire/process/process-groups.ts';
import { answersHttp, ServedProcess } from '../../../../sim/wire/process/served-process.ts';
import { leftIn, processTable } from '../../cli/process.ts';

// Answers GET at once: boots in a fraction of a second.
const QUICK = 'SLOW_MS=0 node test/sim/wire/fixtures/slow-server.mjs';
const groupOf = (url: string) =>
  processTable().find((r) => r.args.includes('slow-server.mjs') && portOf(r.pid) === new URL(url).port)?.pgid;
function portOf(pid: number): string | undefined {
  try {
    return /(?:^|\0)PORT=(\d+)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

describe('ServedProcess', () => {
  it('two restarts in flight at once run one after the other, and one process answers after them', async () => {
    const served = await ServedProcess.start(QUICK, { spare: false });
    try {
      const first = served.url;
      await Promise.all([served.restart(), served.restart()]);
      expect(served.restarts).toEqual({ total: 2, fromSpare: 0 });
      expect(served.failed).toBeNull();
      expect(await answersHttp(served.url)).toBe(true);
      expect(served.url).not.toBe(first);
      expect(await answersHttp(first)).toBe(false);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('after the first restart a spare is booted; the second restart switches to it', async () => {
    const served = await ServedProcess.start(QUICK);
    try {
      await served.restart();
      const afterFirst = served.url;
      await new Promise((r) => setTimeout(r, 1500)); // the spare boots in the background
      await served.restart();
      expect(served.restarts).toEqual({ total: 2, fromSpare: 1 });
      expect(served.url).not.toBe(afterFirst);
      expect(await answersHttp(served.url)).toBe(true);
    } finally {
      await served.stop();
    }
    expect(liveGroups()).toEqual([]);
  }, 60_000);

  it('a process that exits on its own is a failure with its status, and stop() leaves no process of it', async () => {
    const served = await ServedProcess.start(QUICK);
    const failures: string[] = [];
    served.whenFailed((e) => failures.push(e.message));
    const pgid = groupOf(served.url);
    expect(pgid).toBeDefined();
    process.kill(-pgid!, 'SIGKILL');
    for (let i = 0; i < 50 && failures.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(failures).toEqual([expect.stringMatching(/^--serve server exited on its own \(signal SIGKILL\)/)]);
    await served.stop();
    expect(leftIn([pgid!])).toEqual([]);
    expect(liveGroups()).toEqual([]);
  }, 60_000);
});
