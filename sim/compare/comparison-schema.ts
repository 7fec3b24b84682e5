// The shape of a compare.json as `merge` reads it back: enough that joining shards and rendering the
// merged reports cannot trip over a field of the wrong kind (a `results` that is a string used to
// end in "internal error"). Objects are loose: fields a later version or another tier adds to a
// cell or a finding are carried through to the merged report untouched.
import { z } from 'zod';
import { combinationSchema, historyEntrySchema, plannedFaultSchema, requestIndex, workloadStepSchema } from '../core/schemas.ts';
import { CELL_CLASSES } from './compare.ts';

const count = z.int().min(0);

const propertyResultSchema = z.looseObject({
  property: z.string(),
  verdict: z.enum(['holds', 'violated', 'vacuous']),
  outcomes: z.record(z.string(), count),
  reached: count,
  violations: count,
  counterexample: z.looseObject({}).nullable(),
});

const cellSchema = z.looseObject({
  index: count,
  id: z.string(),
  name: z.string(),
  class: z.enum(CELL_CLASSES as [string, ...string[]]),
  alphabet: z.string(),
  combination: combinationSchema,
  seed: z.int(),
  runs: count,
  faults: z.array(z.string()),
  results: z.array(propertyResultSchema),
  stats: z.looseObject({}),
  policyError: z.looseObject({}).nullable(),
});

const findingSchema = z.looseObject({
  id: z.string(),
  cell: z.string(),
  cellIndex: count,
  cellName: z.string(),
  kind: z.enum(['violation', 'policy-error']),
  properties: z.array(z.looseObject({ property: z.string(), why: z.string() })),
  combination: combinationSchema,
  alphabet: z.array(z.string()),
  plan: z.array(plannedFaultSchema),
  workload: z.array(workloadStepSchema),
  schedule: z.array(requestIndex),
  seed: z.int(),
  path: z.string(),
  runs: count,
  outcomes: z.array(z.looseObject({ callId: count, outcome: z.string() })),
  // null in an unsharded report that keeps only some histories; merge says so in its own words.
  history: z.array(historyEntrySchema).nullable(),
});

export const comparisonSchema = z.looseObject({
  tool: z.object({ name: z.string(), version: z.string() }),
  seed: z.int(),
  runs: count,
  properties: z.array(z.string()),
  matrix: z.looseObject({ kind: z.string(), cut: z.looseObject({}), size: count }),
  policies: z.array(z.string()),
  shard: z.object({ index: z.int().min(1), count: z.int().min(1) }).optional(),
  interrupted: z.boolean(),
  cells: z.array(cellSchema),
  findings: z.array(findingSchema),
  timing: z.record(z.string(), z.unknown()).optional(),
});
