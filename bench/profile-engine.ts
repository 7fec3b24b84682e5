// The engine loop the profile samples: the benchmark's fixed session, many times; recorded (the
// engine), or `judged`: history-free and judged as `check` judges a sampled run (bench/judged-world.ts).
import { DEFAULT_WORLD, runWorld } from '../sim/world/world.ts';
import { SESSION } from './engine.ts';
import { FoldedJudge } from './judged-world.ts';

const sessions = Number(process.argv[2] ?? 200_000);
if (process.argv[3] === 'judged') {
  const judge = new FoldedJudge(SESSION);
  for (let i = 0; i < sessions; i++) judge.run(SESSION.plan);
} else {
  for (let i = 0; i < sessions; i++) runWorld(SESSION, DEFAULT_WORLD);
}
