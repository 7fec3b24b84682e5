// A world run that keeps no history: each entry goes to a sink as the world writes it (a random
// check's property folds, search/random/check-runner.ts), and what the run leaves behind is the
// states and transitions its machines reached and the knobs of its combination it read
// (world/knob-reads.ts). The same world as `runWorld`, entry for entry: a run that needs its history
// (a counterexample, a report) is run again with `runWorld`.
import { ALL_KNOBS, trackable, type KnobReads } from './knob-reads.ts';
import { DEFAULT_WORLD, emptyReach, World, type EntrySink, type Reach, type RunInput, type WorldOptions } from './world.ts';

/** What a history-free run leaves: what its machines reached, and the knobs it read (every knob
 *  where its combination is not trackable). */
export interface Ran {
  reach: Reach;
  reads: number;
}

export class UnrecordedWorld extends World {
  runInto(sink: EntrySink): Reach {
    this.writeTo(sink);
    this.scoped(() => {
      this.start();
      this.loop();
    });
    return this.reach;
  }

  /** Queue events processed so far (the bench's events per session). */
  get steps(): number {
    return this.s.steps;
  }
}

/** Run `input` to its end writing every entry into `sink`: what it reached and the knobs it read.
 *  A designer's policy failing throws as in `runWorld`, without the history attached. */
export function runWorldInto(input: RunInput, sink: EntrySink, options: Partial<WorldOptions> = {}): Ran {
  const reads: KnobReads | undefined = trackable(input.combination) ? { mask: 0 } : undefined;
  const reach = new UnrecordedWorld(input, { ...DEFAULT_WORLD, ...options }, emptyReach(), undefined, reads).runInto(sink);
  return { reach, reads: reads ? reads.mask : ALL_KNOBS };
}
