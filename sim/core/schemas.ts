// zod schemas of the shared data that files carry (fault plans, workloads, combinations, history
// entries), for everything that reads such a file back: counterexample files, shard reports.
// Knob, fault and property names are strings here: whether this process knows them is a question
// for what is loaded, not for the file's shape.
import { z } from 'zod';

/** A request index (a fault's firing point, a schedule choice): a whole number from 0 (not -3, 2.5 or 1e300). */
export const requestIndex = z.int().min(0);

export const plannedFaultSchema = z.object({ fault: z.string(), at: requestIndex });

export const workloadStepSchema = z.object({
  method: z.enum(['tools/call', 'tools/list']),
  progress: z.boolean(),
  overlap: z.boolean(),
  idempotent: z.boolean().optional(),
});

/** A workload the agent can run: at least one step. */
export const workloadSchema = z.array(workloadStepSchema).min(1);

// A file written before the protocol knobs existed is a 2025-11-25 file: they take their defaults.
// Other knobs are carried along as strings.
export const combinationSchema = z.object({
  server: z
    .object({ reinit: z.string(), streaming: z.string(), advertise: z.string(), protocol: z.string().default('2025-11-25') })
    .catchall(z.string()),
  client: z
    .object({
      reconnect: z.string(),
      accept: z.string(),
      parser: z.string(),
      guards: z.array(z.string()),
      protocol: z.string().default('2025-11-25'),
      reissue: z.string().default('always'),
    })
    .catchall(z.string()),
});

/** Entries are compared as JSON, so only what every entry has is checked. */
export const historyEntrySchema = z.looseObject({ t: z.number().min(0), kind: z.string() });
