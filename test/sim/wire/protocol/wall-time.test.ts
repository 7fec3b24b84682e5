// The wall clock of runs with a client process: a plan's virtual waits become real sleeps, capped.
import { expect, it } from 'vitest';
import { WallTime } from '../../../../sim/wire/protocol/wall-time.ts';

it('sleeps for real, at most the cap, and stamps real milliseconds since the run began', async () => {
  const time = new WallTime(200);
  await time.sleep(30);
  expect(time.now).toBeGreaterThanOrEqual(29);
  const before = time.now;
  await time.sleep(60_000);
  expect(time.now - before).toBeGreaterThanOrEqual(195);
  expect(time.now - before).toBeLessThan(5000);
  expect(time.advance()).toBe(false);
});

it('is idle once nothing has moved for a second of real time', async () => {
  const time = new WallTime();
  const start = time.now;
  const moving = setInterval(() => time.activity++, 100);
  setTimeout(() => clearInterval(moving), 1500);
  await time.idle();
  expect(time.now - start).toBeGreaterThanOrEqual(2400);
});
