// The shape of a counterexample file, as a zod schema: what replay needs to run it again (a plan
// whose firing points are request indexes, a workload with at least one step, world options a world
// can run with) and what it compares against. Format and version are checked before this, each with
// its own message; the knob values, faults and properties a file names are checked against what is
// loaded (corpus/replay.ts `checkKnown`).
import { z } from 'zod';
import { combinationSchema, historyEntrySchema, plannedFaultSchema, requestIndex, workloadSchema } from '../core/schemas.ts';
import { OUTCOMES } from '../../properties/outcomes.ts';

const worldSchema = z.looseObject({
  latencyMs: z.number().min(0),
  deadlineMs: z.number().positive(),
  stepBudget: z.int().min(1),
});

export const counterexampleSchema = z.looseObject({
  tool: z.object({ name: z.string(), version: z.string() }),
  id: z.string(),
  cell: z.string().nullable(),
  kind: z.enum(['violation', 'policy-error']),
  combination: combinationSchema,
  alphabet: z.array(z.string()),
  plan: z.array(plannedFaultSchema),
  workload: workloadSchema,
  schedule: z.array(requestIndex),
  seed: z.int(),
  path: z.string(),
  runs: z.int().min(0),
  policies: z.array(z.string()),
  world: worldSchema,
  expected: z.object({
    properties: z.array(z.object({ property: z.string(), why: z.string() })),
    outcomes: z.array(z.object({ callId: z.int().min(0), outcome: z.enum(OUTCOMES) })),
    history: z.array(historyEntrySchema),
  }),
});
