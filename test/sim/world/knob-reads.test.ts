// The claim the run store stands on (sim/world/knob-reads.ts): a run is the same under every
// combination that agrees with it on the knobs it read. Checked run by run, with the knobs a model's
// `choose` left uncounted (models/knob-choice.ts) among those changed; and `choose` counts a knob
// exactly where its values decide.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_VOCABULARY } from '../../../models/faults.ts';
import { choose } from '../../../models/knob-choice.ts';
import { CLIENT_KNOBS, combination, SERVER_KNOBS, type Guard } from '../../../models/policies.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { KNOBS, knobsOf, trackable, trackedTwin } from '../../../sim/world/knob-reads.ts';
import { runWorld, runWorldReading } from '../../../sim/world/world.ts';
import { anyCombination, changed } from '../../fixtures/combinations.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

/** The knobs the models decide with `choose`. */
const CHOSEN = [
  'server.streaming',
  'server.reinit',
  'server.advertise',
  'server.idempotency',
  'client.reconnect',
  'client.accept',
  'client.reissue',
  'client.guards',
];

describe('knob reads', () => {
  it('a combination that agrees on every knob a run read runs it the same', () => {
    const unreadChosen = new Set<string>();
    let unread = 0;
    fc.assert(
      fc.property(
        anyCombination,
        fc.nat(KNOBS.length - 1),
        fc.nat(4),
        fc.subarray([...CLIENT_KNOBS.guards.values] as Guard[]),
        fc.subarray([...FAULT_VOCABULARY], { minLength: 1, maxLength: 4 }).chain((faults) => inputs({ plan: { faults } })),
        (c, knob, pick, guards, [plan, workload, schedule]) => {
          const { history, reads } = runWorldReading({ combination: c, plan, workload, schedule }, DEFAULT_WORLD);
          const other = changed(c, knob, pick, guards);
          if (reads & (1 << knob)) return;
          unread++;
          if (CHOSEN.includes(KNOBS[knob]!) && JSON.stringify(other) !== JSON.stringify(c)) unreadChosen.add(KNOBS[knob]!);
          const theirs = runWorld({ combination: other, plan, workload, schedule }, DEFAULT_WORLD);
          expect(JSON.stringify(theirs.entries)).toBe(JSON.stringify(history.entries));
        },
      ),
      { numRuns: 400, seed: 28 },
    );
    // Reached: runs that left knobs unread, among them knobs a `choose` decided without counting.
    expect(unread).toBeGreaterThan(100);
    expect([...unreadChosen].sort()).toEqual([...CHOSEN].sort());
  });

  it('choose counts a knob only where its values decide, and answers as the value set does', () => {
    const c = combination({ server: { streaming: 'accept-header' }, client: {} }, NO_ADDITIONS);
    const twin = trackedTwin(c)!;
    const streams = (byHeader: boolean, byCaps: boolean) => {
      twin.reads.mask = 0;
      const answer = choose(twin.combination.server, 'streaming', SERVER_KNOBS.streaming.values, (rule) =>
        rule === 'accept-header' ? byHeader : byCaps,
      );
      return { answer, read: knobsOf(twin.reads.mask) };
    };
    expect(streams(true, true)).toEqual({ answer: true, read: [] });
    expect(streams(false, false)).toEqual({ answer: false, read: [] });
    expect(streams(true, false)).toEqual({ answer: true, read: ['server.streaming'] });
    expect(streams(false, true)).toEqual({ answer: false, read: ['server.streaming'] });

    // Values that cannot all be listed (a policy module's): always counted.
    twin.reads.mask = 0;
    expect(choose(twin.combination.server, 'reinit', null, () => 1)).toBe(1);
    expect(knobsOf(twin.reads.mask)).toEqual(['server.reinit']);
    // A value outside the list given: counted.
    twin.reads.mask = 0;
    expect(choose(twin.combination.server, 'streaming', ['negotiated'], () => 1)).toBe(1);
    expect(knobsOf(twin.reads.mask)).toEqual(['server.streaming']);
    // A plain policy (a run that does not count): the value's answer.
    expect(choose(c.server, 'streaming', SERVER_KNOBS.streaming.values, (rule) => rule)).toBe('accept-header');
  });

  it('choose over a set knob compares sets by their members', () => {
    const c = combination({ server: {}, client: { guards: ['probe'] } }, NO_ADDITIONS);
    const twin = trackedTwin(c)!;
    const client = twin.combination.client;
    const sets: Guard[][] = [[], ['probe']];
    // The set is a copy of the combination's (another array, the same members): in the list, so not
    // counted where both sets decide alike.
    twin.reads.mask = 0;
    expect(choose(client, 'guards', sets, () => 0)).toBe(0);
    expect(knobsOf(twin.reads.mask)).toEqual([]);
    // Where the set decides, it is counted.
    twin.reads.mask = 0;
    expect(choose(client, 'guards', sets, (g) => g.length)).toBe(1);
    expect(knobsOf(twin.reads.mask)).toEqual(['client.guards']);
    // A set not in the list: counted.
    twin.reads.mask = 0;
    expect(choose(client, 'guards', [[]] as Guard[][], () => 0)).toBe(0);
    expect(knobsOf(twin.reads.mask)).toEqual(['client.guards']);
  });

  it('tracks exactly the combinations with the known knobs, each on its side', () => {
    fc.assert(
      fc.property(anyCombination, (c) => {
        expect(trackable(c)).toBe(true);
        expect(trackable(trackedTwin(c)!.combination)).toBe(true);
        const server = c.server as unknown as Record<string, unknown>;
        const client = c.client as unknown as Record<string, unknown>;
        const [knob] = Object.keys(server);
        const { [knob!]: moved, ...rest } = server;
        expect(trackable({ ...c, extra: 1 } as never)).toBe(false);
        expect(trackable({ server: { ...server, extra: 1 }, client } as never)).toBe(false);
        expect(trackable({ server: rest, client } as never)).toBe(false);
        expect(trackable({ server: rest, client: { ...client, [knob!]: moved } } as never)).toBe(false);
        expect(trackable({ server: { ...rest, other: moved }, client } as never)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });
});
