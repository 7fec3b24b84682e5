// The engine loop the profile samples: the benchmark's fixed session, many times.
import { runWorld } from '../world/world.ts';
import { SESSION } from './engine.ts';

const sessions = Number(process.argv[2] ?? 200_000);
for (let i = 0; i < sessions; i++) runWorld(SESSION);
