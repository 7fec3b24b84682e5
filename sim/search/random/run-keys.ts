// What stored runs are keyed by (search/run-store.ts): an input's plan, schedule and workload as one
// short string, worked out from the fields a run reads of them, and once per drawn input.
import type { FaultPlan } from '../../core/plan.ts';
import type { Workload, WorkloadStep } from '../../core/workload.ts';

/** One drawn input as fast-check draws it: a plan, a workload, a schedule. */
export type Drawn = [FaultPlan, Workload, number[]];

/** A run's input as its key reads it (search/random/input-judge.ts `CheckInput`). */
interface RunInputOf {
  plan: FaultPlan;
  workload: Workload;
  schedule: readonly number[];
}

/** The fields of a step the world reads (world/world.ts `issueCalls`, core/workload.ts `nextCalls`),
 *  in their usual values, as a number below 24; -1 for anything else. */
function stepCode(step: WorkloadStep | undefined): number {
  if (step === undefined || step === null) return -1;
  const { method, progress, overlap, idempotent } = step;
  const m = method === 'tools/call' ? 0 : method === 'tools/list' ? 1 : -1;
  const i = idempotent === undefined ? 0 : idempotent === true ? 1 : idempotent === false ? 2 : -1;
  if (m < 0 || i < 0 || typeof progress !== 'boolean' || typeof overlap !== 'boolean') return -1;
  return m * 12 + i * 4 + (progress ? 2 : 0) + (overlap ? 1 : 0);
}

/** What a workload is kept by: a letter per step where each step reads as usual, else its JSON
 *  (which starts with `[`, no letter). A run reads nothing of a step but the fields `stepCode`
 *  encodes, so workloads with one key run alike. Asked once per sampled run (each is drawn anew):
 *  JSON.stringify of the workload was most of a reference lookup. */
export function workloadKey(workload: Workload): string {
  let key = '';
  for (let i = 0; i < workload.length; i++) {
    const code = stepCode(workload[i]);
    if (code < 0) return JSON.stringify(workload);
    key += String.fromCharCode(65 + code);
  }
  return key;
}

/** The store key of a workload's fault-free run (`keyOf` of it, empty plan and schedule). */
export function referenceKey(workload: Workload): string {
  return `0;||${workloadKey(workload)}`;
}

/** What stored runs are keyed by: each fault's request and name (length-prefixed), the schedule's
 *  picks, then the workload's key (`workloadKey`); its JSON where a fault or a pick is unusual (a
 *  key that starts with `[`, which no other does). A run reads nothing of a fault but these two
 *  fields. The shrink asks it of every candidate: the JSON of the whole input was its largest cost. */
export function keyOf(input: RunInputOf): string {
  const { plan, schedule } = input;
  let key = `${plan.length};`;
  for (let i = 0; i < plan.length; i++) {
    const f = plan[i];
    if (f === undefined || f === null || typeof f.fault !== 'string' || typeof f.at !== 'number') return jsonKey(input);
    key += `${f.at},${f.fault.length},${f.fault}`;
  }
  key += '|';
  for (let i = 0; i < schedule.length; i++) {
    const pick = schedule[i];
    if (typeof pick !== 'number') return jsonKey(input);
    key += `${pick},`;
  }
  return `${key}|${workloadKey(input.workload)}`;
}

/** The store key (`keyOf`) of each drawn input, worked out once: the cells and the finder's searches of a
 *  comparison ask the run store of the same few thousand draws under thousands of combinations (the
 *  finder alone 1.9 million marks in the full matrix), and building the key anew was a tenth of the
 *  finder's time. By the draw's identity (drawn inputs are never changed: `KeptDraws` and the finder's
 *  `drawsOf` keep them). */
const drawnKeys = new WeakMap<Drawn, string>();
export function drawnKey(drawn: Drawn): string {
  let key = drawnKeys.get(drawn);
  if (key === undefined) drawnKeys.set(drawn, (key = keyOf({ plan: drawn[0], workload: drawn[1], schedule: drawn[2] })));
  return key;
}

function jsonKey(input: RunInputOf): string {
  return JSON.stringify([input.plan, input.workload, input.schedule]);
}
