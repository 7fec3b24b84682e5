// zod schemas of the shared data that files carry (fault plans, workloads, combinations, history
// entries), for everything that reads such a file back: counterexample files, shard reports.
// Knob values, fault and property names are strings here: whether this process knows them is a
// question for what is loaded, not for the file's shape.
import { z } from 'zod';
import { CLIENT_KNOBS, SERVER_KNOBS, type KnobTable } from '../../models/knobs.ts';

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

/** A side of a combination, from the knob table (models/knobs.ts): each knob a string (a set knob, a
 *  list of them); one a file written before it existed lacks takes its default (`defaultWhenAbsent`:
 *  the protocol knobs). The knobs policy modules declare are carried along as strings. */
const members = (text: string) => (text === '' ? [] : text.split('+'));

function sideSchema(table: KnobTable) {
  const shape: Record<string, z.ZodType> = {};
  for (const [knob, spec] of Object.entries(table)) {
    if (spec.subset) shape[knob] = spec.defaultWhenAbsent ? z.array(z.string()).default(members(spec.default)) : z.array(z.string());
    else shape[knob] = spec.defaultWhenAbsent ? z.string().default(spec.default) : z.string();
  }
  return z.object(shape).catchall(z.string());
}

export const combinationSchema = z.object({ server: sideSchema(SERVER_KNOBS), client: sideSchema(CLIENT_KNOBS) });

/** Entries are compared as JSON, so only what every entry has is checked. */
export const historyEntrySchema = z.looseObject({ t: z.number().min(0), kind: z.string() });
