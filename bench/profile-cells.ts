// The runs the profile samples for `npm run bench:profile -- cells [PASSES]`: the first phase of
// `check` (the 200 sampled runs of seed 1, drawn, judged history-free and tallied) over every cell of
// the default `compare` (the seeds matrix), PASSES times in this thread (default 1). One pass in a
// new process is what compare's cell thread pays: its code runs cold (interpreted until V8 optimizes
// it), and a run then costs several times what it costs warm, in the passes after. Each pass's CPU
// time is printed, so that the two are told apart.
import { seedMatrix } from '../sim/compare/matrix.ts';
import { PROPERTIES } from '../properties/properties.ts';
import { inputs } from '../sim/search/random/arbitraries.ts';
import { checkShape, worldRunner } from '../sim/search/random/check.ts';
import { InputJudge } from '../sim/search/random/input-judge.ts';
import { inputStream } from '../sim/search/random/input-stream.ts';
import { SampleTally } from '../sim/search/random/tally.ts';
import { DEFAULT_WORLD } from '../sim/world/world.ts';

const RUNS = 200;
const passes = Number(process.argv[2] ?? 1);
const cells = seedMatrix();
for (let pass = 0; pass < passes; pass++) {
  const t = process.cpuUsage();
  let runs = 0;
  for (const c of cells) {
    const judge = new InputJudge(worldRunner(c.combination, DEFAULT_WORLD), PROPERTIES);
    const tally = new SampleTally(PROPERTIES);
    for (const [plan, workload, schedule] of inputStream(inputs(checkShape(c.combination, c.faults, c.shape)), 1, RUNS)) {
      const j = judge.judged(judge.inputOf(plan, workload, schedule), false);
      if (j instanceof Promise) throw new Error('internal: the model world ran asynchronously');
      tally.add(j);
      runs++;
    }
  }
  const u = process.cpuUsage(t);
  const ms = (u.user + u.system) / 1000;
  process.stdout.write(
    `pass ${pass + 1}: ${runs.toLocaleString('en-US')} runs of ${cells.length} cells, ${ms.toFixed(0)} ms CPU, ${((ms * 1000) / runs).toFixed(1)} µs a run\n`,
  );
}
