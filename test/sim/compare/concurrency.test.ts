// Cells at once (runComparison's `concurrency`, a cell thread per core in the CLI): a new cell starts
// as soon as any ends, results are taken in cell order, and the comparison is the one a single
// runner gives; stopped, it keeps every cell that finished, the ones beside the stopped one too. A
// cell may also run in this thread while the finder leaves it idle (`idleRunner`): the same comparison.
import { describe, expect, it } from 'vitest';
import { CellStopped, checkCell, runComparison, type CellRunner } from '../../../sim/compare/compare.ts';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';

const cells = buildMatrix('records', { server: {}, client: {} }).slice(0, 6);
const matrix = { cells, kind: 'records' as const, cut: { server: {}, client: {} }, size: cells.length };
const config = runConfig({ seed: 1, runs: 30 });
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runComparison with cells at once', () => {
  it('gives the comparison one runner gives, with the cells overlapping and out of order', async () => {
    const alone = await runComparison(matrix, config);
    let running = 0;
    let most = 0;
    const ended: number[] = [];
    // Even cells take longer: odd ones end first.
    const runner: CellRunner = async (cell, c) => {
      most = Math.max(most, ++running);
      await later(cell.index % 2 === 0 ? 40 : 5);
      const r = checkCell(cell, c);
      ended.push(cell.index);
      running--;
      return r;
    };
    const together = await runComparison(matrix, config, { runner, concurrency: 2 });
    expect(together).toEqual(alone);
    expect(most).toBe(2);
    expect(ended).not.toEqual([...ended].sort((a, b) => a - b)); // they did end out of order
  });

  it('keeps the cells that finished beside a stopped one', async () => {
    // Cell 2 is stopped once cell 3, beside it, has finished; the stop reaches every cell still running.
    let cell3Done!: () => void;
    const cell3 = new Promise<void>((r) => (cell3Done = r));
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const runner: CellRunner = async (cell, c) => {
      if (cell.index === 2) {
        await cell3;
        stop();
        throw new CellStopped();
      }
      if (cell.index > 3) {
        await stopped;
        throw new CellStopped();
      }
      const r = checkCell(cell, c);
      if (cell.index === 3) cell3Done();
      return r;
    };
    const c = await runComparison(matrix, config, { runner, concurrency: 2 });
    expect(c.interrupted).toBe(true);
    expect(c.cells.map((x) => x.index)).toEqual([0, 1, 3]);
    expect(c.findings.every((f) => ['0', '1', '3'].includes(String(cells.find((x) => x.id === f.cell)?.index)))).toBe(true);
  });

  it('runs cells here while this thread is idle, and gives the same comparison', async () => {
    const alone = await runComparison(matrix, config);
    // The "thread" cells take a while; this thread has no finder work between them (runs: 30 finds
    // little to search), so it takes cells of its own meanwhile.
    const onThread: number[] = [];
    const here: number[] = [];
    const runner: CellRunner = async (cell, c) => {
      await later(30);
      onThread.push(cell.index);
      return checkCell(cell, c);
    };
    const idleRunner: CellRunner = (cell, c) => {
      here.push(cell.index);
      return checkCell(cell, c);
    };
    const mixed = await runComparison(matrix, config, { runner, concurrency: 1, idleRunner });
    expect(mixed).toEqual(alone);
    expect(here.length).toBeGreaterThan(0); // reached: some cells did run here
    expect(onThread.length).toBeGreaterThan(0);
    expect([...here, ...onThread].sort((a, b) => a - b)).toEqual(cells.map((c) => c.index));
  });
});
