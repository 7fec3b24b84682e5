// One run's config, resolved once (plugins/run-config.ts): every default filled in, the world's
// additions the registry's; its portable form crosses to a thread as plain data and rebuilds a config
// that runs exactly as this one does; a config made from objects in this process does not cross.
import { describe, expect, it } from 'vitest';
import { combination } from '../../../models/policies.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { singleCell } from '../../../sim/compare/compare.ts';
import { checkCell } from '../../../sim/compare/check-cell.ts';
import { EMPTY_REGISTRY, registryProperty } from '../../../sim/plugins/loaded.ts';
import { loadPolicies, registerPolicies } from '../../../sim/plugins/policy-module.ts';
import { configFrom, DEFAULT_CONFIG, DEFAULT_RUNS, DEFAULT_SEED, portableConfig, runConfig } from '../../../sim/plugins/run-config.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const B = 'test/fixtures/policies/twin-b.ts';

describe('a run config', () => {
  it('fills in every default: the built-ins, the default world, seed and runs, every property', () => {
    expect(DEFAULT_CONFIG).toEqual({
      registry: EMPTY_REGISTRY,
      world: DEFAULT_WORLD,
      seed: DEFAULT_SEED,
      runs: DEFAULT_RUNS,
      properties: PROPERTIES,
    });
    const c = runConfig({ seed: 7, world: { deadlineMs: 1_000 } });
    expect(c.world).toEqual({ ...DEFAULT_WORLD, deadlineMs: 1_000 });
    expect([c.seed, c.runs]).toEqual([7, DEFAULT_RUNS]);
  });

  it("takes the world's additions and the default properties from the registry", async () => {
    const b = await loadPolicies([B]);
    const c = runConfig({ registry: b });
    expect(c.world.additions).toBe(b.additions);
    expect(c.properties.map((p) => p.name)).toEqual([...PROPERTIES.map((p) => p.name), 'twin-prop', 'twin-fold']);
  });

  it('crosses to a thread as plain data and rebuilds a config that checks a cell the same', async () => {
    const b = await loadPolicies([B]);
    const config = runConfig({ registry: b, seed: 3, runs: 30, world: { latencyMs: 7 }, properties: [registryProperty(b, 'twin-prop')!] });
    const portable = portableConfig(config)!;
    expect(portable).toEqual({
      modules: [B],
      world: { ...DEFAULT_WORLD, latencyMs: 7, additions: undefined },
      seed: 3,
      runs: 30,
      properties: ['twin-prop'],
    });
    // What a thread rebuilds: the same modules loaded into a registry of its own.
    const there = configFrom(structuredClone(portable), await loadPolicies(portable.modules));
    expect(there.registry).not.toBe(b);
    expect({ ...there.world, additions: null }).toEqual({ ...config.world, additions: null });
    const cell = singleCell(combination({ server: { reinit: 'twin' } }, b.additions), ['twin-fault', 'http-502']);
    expect(checkCell(cell, there)).toEqual(checkCell(cell, config));
  });

  it('does not cross when a thread could not rebuild it: additions or properties made from objects here', () => {
    const inline = registerPolicies(
      { faults: { 'x-fault': { describe: 'x', request: () => ({ applied: false, detail: 'x' }) } } },
      'inline',
    );
    expect(portableConfig(runConfig({ registry: inline }))).toBeNull();
    expect(portableConfig(DEFAULT_CONFIG)).not.toBeNull();
  });
});
