// A world run that keeps no history: each entry goes to a sink as the world writes it (a random
// check's property folds, search/random/check-runner.ts), and what the run leaves behind is only the
// states and transitions its machines reached. The same world as `runWorld`, entry for entry: a
// run that needs its history (a counterexample, a report) is run again with `runWorld`.
import { DEFAULT_WORLD, emptyReach, World, type EntrySink, type Reach, type RunInput, type WorldOptions } from './world.ts';

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

/** Run `input` to its end writing every entry into `sink`; the states and transitions it reached.
 *  A designer's policy failing throws as in `runWorld`, without the history attached. */
export function runWorldInto(input: RunInput, sink: EntrySink, options: Partial<WorldOptions> = {}): Reach {
  return new UnrecordedWorld(input, { ...DEFAULT_WORLD, ...options }, emptyReach()).runInto(sink);
}
