// The compiled engine must be XState, only faster: on random worlds over every knob, both engines
// give byte-identical histories.
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { clientMachine, clientReducers } from '../../../models/client.ts';
import { historyJson } from '../../fixtures/history-json.ts';
import { compiledStepper } from '../../../sim/world/engine/compiled-step.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { setup } from 'xstate';
import { anyCombination } from '../../fixtures/combinations.ts';

describe('compiled engine', () => {
  test.prop([anyCombination, inputs({ workload: { overlap: true, lists: true, idempotent: true } })], { numRuns: 300 })(
    'gives the same history as XState on any combination, plan, workload and schedule',
    (c, [plan, workload, schedule]) => {
      const input = { combination: c, plan, workload, schedule };
      expect(historyJson(runWorld(input, { engine: 'compiled' }))).toBe(historyJson(runWorld(input, { engine: 'xstate' })));
    },
  );

  it('refuses machine features it does not interpret, naming them', () => {
    const withEntry = setup({ actions: { x: () => {} } }).createMachine({ id: 'm', initial: 'a', states: { a: { entry: 'x' } } });
    expect(() => compiledStepper(withEntry, {})).toThrow(/entry or exit actions/);
    const parallel = setup({}).createMachine({ id: 'p', type: 'parallel', states: { a: {}, b: {} } });
    expect(() => compiledStepper(parallel, {})).toThrow(/parallel state/);
    expect(() => compiledStepper(clientMachine, { ...clientReducers, handleResponse: undefined as never })).toThrow(/handleResponse/);
  });
});
