// A wait bounded on the wall clock (`withinRealMs`) takes its timer away once the race is decided: a
// timer left pending holds the process open (`audit --serve` exited a second after its report). The
// timers are counted as Node counts what keeps a process alive (`process.getActiveResourcesInfo()`).
import { expect, it } from 'vitest';
import { withinRealMs } from '../../../../sim/wire/protocol/real-timers.ts';

const pendingTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

it('is decided by its promise, and then leaves no timer that would hold the process open', async () => {
  const before = pendingTimers();
  const answer = deferred<string>();
  const waiting = withinRealMs(answer.promise, 60_000, 'late');
  // The count sees the bound while it is pending: the equality below is not vacuous.
  expect(pendingTimers()).toBe(before + 1);
  answer.resolve('answered');
  await expect(waiting).resolves.toBe('answered');
  expect(pendingTimers()).toBe(before);
});

it('gives `late` once the time has passed, and leaves no timer either', async () => {
  const before = pendingTimers();
  await expect(withinRealMs(new Promise<string>(() => {}), 20, null)).resolves.toBeNull();
  expect(pendingTimers()).toBe(before);
});

it("passes its promise's rejection on, and takes the timer away", async () => {
  const before = pendingTimers();
  const answer = deferred<string>();
  const waiting = withinRealMs(answer.promise, 60_000, 'late');
  answer.reject(new Error('the server went away'));
  await expect(waiting).rejects.toThrow('the server went away');
  expect(pendingTimers()).toBe(before);
});
