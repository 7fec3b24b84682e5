// The shape of a counterexample file, as a zod schema: what replay needs to run it again (a plan
// whose firing points are request indexes, a workload with at least one step, world options a world
// can run with) and what it compares against. Format and version are checked before this, each with
// its own message; the knob values, faults and properties a file names are checked against what is
// loaded (corpus/replay.ts `checkKnown`).
import { z } from 'zod';
import { OUTCOMES } from '../properties/outcomes.ts';

/** A request index: a whole number from 0 (not -3, 2.5 or 1e300). */
const index = z.int().min(0);

const plannedFault = z.object({ fault: z.string(), at: index });

const workloadStep = z.object({ method: z.enum(['tools/call', 'tools/list']), progress: z.boolean(), overlap: z.boolean() });

// Knob values are strings here; whether this process knows them is checkKnown's question. Other
// knobs (a later protocol revision's) are carried along.
const combination = z.object({
  server: z.object({ reinit: z.string(), streaming: z.string(), advertise: z.string() }).catchall(z.string()),
  client: z.object({ reconnect: z.string(), accept: z.string(), parser: z.string(), guards: z.array(z.string()) }).catchall(z.string()),
});

const world = z.looseObject({
  latencyMs: z.number().min(0),
  deadlineMs: z.number().positive(),
  stepBudget: z.int().min(1),
});

export const counterexampleSchema = z.looseObject({
  tool: z.object({ name: z.string(), version: z.string() }),
  id: z.string(),
  cell: z.string().nullable(),
  kind: z.enum(['violation', 'policy-error']),
  combination,
  alphabet: z.array(z.string()),
  plan: z.array(plannedFault),
  workload: z.array(workloadStep).min(1),
  schedule: z.array(index),
  seed: z.int(),
  path: z.string(),
  runs: z.int().min(0),
  policies: z.array(z.string()),
  world,
  expected: z.object({
    properties: z.array(z.object({ property: z.string(), why: z.string() })),
    outcomes: z.array(z.object({ callId: index, outcome: z.enum(OUTCOMES) })),
    history: z.array(z.looseObject({ t: z.number().min(0), kind: z.string() })),
  }),
});
