// Same inputs and seed → byte-identical histories and results, within one process and across two.
import { PROPERTIES } from '../../../properties/properties.ts';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { VULNERABLE_000 } from '../../../sim/core/cells.ts';
import { check } from '../../../index.ts';
import { historyJson } from '../../fixtures/history-json.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { FIXED_INPUT } from '../../fixtures/print-history.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const node = (args: string[]) =>
  execFileSync(process.execPath, args, { encoding: 'utf8', cwd: new URL('../../..', import.meta.url).pathname });

describe('determinism', () => {
  it('gives a byte-identical history twice in one process', () => {
    const a = historyJson(runWorld(FIXED_INPUT, DEFAULT_WORLD));
    const b = historyJson(runWorld(FIXED_INPUT, DEFAULT_WORLD));
    expect(a).toBe(b);
    expect(a.length).toBeGreaterThan(2000);
  });

  it('gives a byte-identical history in another process', () => {
    const other = node(['--import', 'tsx', 'test/fixtures/print-history.ts']);
    expect(other).toBe(historyJson(runWorld(FIXED_INPUT, DEFAULT_WORLD)));
  });

  it('gives byte-identical check results for the same seed, and different ones for another seed', () => {
    const a = JSON.stringify(check(VULNERABLE_000, { seed: 42, runs: 100 }));
    expect(JSON.stringify(check(VULNERABLE_000, { seed: 42, runs: 100 }))).toBe(a);
    expect(JSON.stringify(check(VULNERABLE_000, { seed: 43, runs: 100 }))).not.toBe(a);
  });

  it('gives byte-identical CLI output across processes', () => {
    const args = ['bin/mcp-faultsim.js', 'check', '--json', '--seed', '9', '--runs', '60'];
    const run = () => {
      try {
        return node(args);
      } catch (e) {
        return (e as { stdout: string }).stdout; // exit 1: a property is violated
      }
    };
    const first = run();
    expect(JSON.parse(first).results).toHaveLength(PROPERTIES.length);
    expect(run()).toBe(first);
  });
});
