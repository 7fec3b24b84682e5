// The parts a profile is summed by (bench/code-parts.ts) and what a missed target says holds it back
// (bench/targets.ts): every file of the engine's and the explorer's folders is in its own part, never
// in the catch-all; dist/ files are named by their sources; and a missed target names the largest
// parts of the profile of what it measures, leaving out what is not the package's code.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_PARTS, ELSEWHERE, GC_PART, partOfFile, partOfFrame, sharesOf, sourceOfUrl } from '../../bench/code-parts.ts';
import type { PartsFigures } from '../../bench/parts.ts';
import { judgeTargets } from '../../bench/targets.ts';
import type { EngineFigures } from '../../bench/engine.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CATCH_ALL = ALL_PARTS[ALL_PARTS.length - 3]!;
const files = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );

describe('the parts of the code', () => {
  it('puts every file of the models, properties, world, search and core in a part of its own, not the catch-all', () => {
    const engineFiles = ['models', 'properties', 'sim/world', 'sim/search', 'sim/core'].flatMap(files);
    expect(engineFiles.length).toBeGreaterThan(80);
    for (const f of engineFiles) expect(partOfFile(f), f).not.toBe(CATCH_ALL);
    expect(partOfFile('models/server.ts')).toMatch(/models/);
    expect(partOfFile('sim/world/engine/compiled-step.ts')).toMatch(/stepper/);
    expect(partOfFile('sim/world/world.ts')).toMatch(/dispatch/);
    expect(partOfFile('sim/core/digest.ts')).toMatch(/fingerprinting/);
    expect(partOfFile('sim/search/world-key.ts')).toMatch(/run store/);
    expect(partOfFile('sim/cli/main.ts')).toBe(CATCH_ALL);
  });

  it('names a compiled file by its source, and code that is not the package as elsewhere', () => {
    expect(sourceOfUrl(`file://${root}dist/models/server.js`, root)).toBe('models/server.ts');
    expect(sourceOfUrl(`file://${root}models/server.ts`, root)).toBe('models/server.ts');
    expect(sourceOfUrl(`file://${root}node_modules/xstate/dist/x.js`, root)).toBeNull();
    expect(partOfFrame('(garbage collector)', '', root)).toBe(GC_PART);
    expect(partOfFrame('readFile', 'node:fs', root)).toBe(ELSEWHERE);
  });

  it('gives shares of the sum, largest first', () => {
    const shares = sharesOf(
      new Map([
        [GC_PART, 1],
        [CATCH_ALL, 3],
        [ELSEWHERE, 0],
      ]),
      true,
    );
    expect(shares).toEqual([
      { part: CATCH_ALL, share: 75, amount: 3 },
      { part: GC_PART, share: 25, amount: 1 },
    ]);
  });
});

describe('a missed target', () => {
  const profile = (shares: [string, number][]) => ({ command: 'x', shares: shares.map(([part, share]) => ({ part, share })) });
  const parts: PartsFigures = {
    engineCpu: profile([
      [ELSEWHERE, 40],
      [ALL_PARTS[0]!, 30],
      [ALL_PARTS[3]!, 20],
      [GC_PART, 10],
    ]),
    check: profile([[ALL_PARTS[0]!, 100]]),
    explore: profile([[ALL_PARTS[5]!, 100]]),
  };
  const engine = (minimalToHistoryOff: number) => ({ minimalToHistoryOff, sessionsPerSecond: 1, eventsPerSession: 1 }) as EngineFigures;

  it('names the two largest parts of its profile, node and module loading left out', () => {
    const t = judgeTargets({ engine: engine(150), parts }).issue40MinimalWithin10xOfHistoryOff;
    expect(t.met).toBe(false);
    expect(t.figure).toBe(
      `×150; held back most by ${ALL_PARTS[0]} 30%, ${ALL_PARTS[3]} 20% (self time of the engine's history-off session: bench parts)`,
    );
  });

  it("names the largest parts of the history-off session's bytes, from the engine section", () => {
    const bytes = {
      ...engine(150),
      bytesPerSession: { engine: 9, historyOff: 9, minimal: 1 },
      historyOffBytesByPart: profile([
        [ALL_PARTS[3]!, 70],
        [ALL_PARTS[0]!, 30],
      ]).shares,
    };
    expect(judgeTargets({ engine: bytes }).issue40StepAllocatesNothing.figure).toContain(
      `; held back most by ${ALL_PARTS[3]} 70%, ${ALL_PARTS[0]} 30% (bytes of the engine's history-off session: bench engine)`,
    );
  });

  it('says nothing of parts when met, or when the parts were not measured', () => {
    expect(judgeTargets({ engine: engine(5), parts }).issue40MinimalWithin10xOfHistoryOff.figure).toBe('×5');
    expect(judgeTargets({ engine: engine(150) }).issue40MinimalWithin10xOfHistoryOff.figure).toBe('×150');
  });
});
