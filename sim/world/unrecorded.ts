// A world run that keeps no history: each entry goes to a sink as the world writes it (a random
// check's property folds, search/random/check-runner.ts), and what the run leaves behind is the
// states and transitions its machines reached and the knobs of its combination it read
// (world/knob-reads.ts). The same world as `runWorld`, entry for entry: a run that needs its history
// (a counterexample, a report) is run again with `runWorld`.
import type { Combination } from '../../models/policies.ts';
import { ALL_KNOBS, trackedTwin } from './knob-reads.ts';
import { emptyReach, World, type EntrySink, type Reach, type RunInput, type WorldOptions } from './world.ts';

/** What a history-free run leaves: what its machines reached, and the knobs it read (every knob
 *  where its combination is not trackable). */
export interface Ran {
  reach: Reach;
  reads: number;
}

export class UnrecordedWorld extends World {
  runInto(sink: EntrySink): Reach {
    this.writeTo(sink);
    this.start();
    this.loop();
    return this.reach;
  }

  /** Queue events processed so far (the bench's events per session). */
  get steps(): number {
    return this.s.steps;
  }
}

/** Run `input` to its end writing every entry into `sink`: what it reached and the knobs it read.
 *  `sink` may be made from the combination as the run's machines see it (its tracked twin: a fold
 *  that reads a knob counts as the run reading it). A designer's policy failing throws as in
 *  `runWorld`, without the history attached. */
export function runWorldInto(input: RunInput, sink: EntrySink | ((seen: Combination) => EntrySink), world: WorldOptions): Ran {
  const twin = trackedTwin(input.combination);
  if (twin) twin.reads.mask = 0;
  const seen = twin?.combination ?? input.combination;
  const into = typeof sink === 'function' ? sink(seen) : sink;
  const reach = new UnrecordedWorld(input, world, emptyReach(), undefined, seen).runInto(into);
  return { reach, reads: twin ? twin.reads.mask : ALL_KNOBS };
}
