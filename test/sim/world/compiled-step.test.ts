// The compiled engine must be XState, only faster: on random worlds over every knob, both engines
// give byte-identical histories (test/sim/cli/policies.test.ts does the same with a module's additions
// bound). A machine is stepped only with a run's additions bound to it: unbound, it fails loudly.
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { clientMachine, clientMachineFor, clientReducers } from '../../../models/client.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';
import { DEFAULT_CLIENT } from '../../../models/policies.ts';
import { xstateStepper } from '../../../sim/world/engine/step.ts';
import { historyJson } from '../../fixtures/history-json.ts';
import { compiledStepper } from '../../../sim/world/engine/compiled-step.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { DEFAULT_WORLD, runWorld } from '../../../sim/world/world.ts';
import { setup } from 'xstate';
import { anyCombination } from '../../fixtures/combinations.ts';

describe('compiled engine', () => {
  test.prop([anyCombination, inputs({ workload: { overlap: true, lists: true, idempotent: true } })], { numRuns: 300 })(
    'gives the same history as XState on any combination, plan, workload and schedule',
    (c, [plan, workload, schedule]) => {
      const input = { combination: c, plan, workload, schedule };
      expect(historyJson(runWorld(input, { ...DEFAULT_WORLD, engine: 'compiled' }))).toBe(
        historyJson(runWorld(input, { ...DEFAULT_WORLD, engine: 'xstate' })),
      );
    },
  );

  it('refuses machine features it does not interpret, naming them', () => {
    const withEntry = setup({ actions: { x: () => {} } }).createMachine({ id: 'm', initial: 'a', states: { a: { entry: 'x' } } });
    expect(() => compiledStepper(withEntry, {}, NO_ADDITIONS)).toThrow(/entry or exit actions/);
    const parallel = setup({}).createMachine({ id: 'p', type: 'parallel', states: { a: {}, b: {} } });
    expect(() => compiledStepper(parallel, {}, NO_ADDITIONS)).toThrow(/parallel state/);
    expect(() => compiledStepper(clientMachine, { ...clientReducers, handleResponse: undefined as never }, NO_ADDITIONS)).toThrow(
      /handleResponse/,
    );
  });

  it("steps a machine only once a run's additions are bound to it", () => {
    const input = { policy: DEFAULT_CLIENT, deadlineMs: 30_000 };
    // The machine as defined: its guards and actions are named, not bound. XState evaluates the
    // first transition's guard on CONNECT.
    const unbound = xstateStepper(clientMachine, clientReducers, NO_ADDITIONS);
    expect(() => unbound.step(unbound.initial(input).snapshot, { type: 'CONNECT' })).toThrow(/before a run's additions were bound/);
    const compiled = compiledStepper(clientMachine, clientReducers, NO_ADDITIONS);
    expect(() => compiled.step(compiled.initial(input).snapshot, { type: 'CONNECT' })).toThrow(/before a run's additions were bound/);
    // Bound (the world's engines): the same step runs.
    const bound = xstateStepper(clientMachineFor(NO_ADDITIONS), clientReducers, NO_ADDITIONS);
    expect(bound.step(bound.initial(input).snapshot, { type: 'CONNECT' }).effects.length).toBeGreaterThan(0);
  });
});
