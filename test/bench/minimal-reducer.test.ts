// The benchmark's minimal reducer must be the record-000 cell it claims to be: on every plan of up to
// one config-reset and one http-502 (the 502 on a tools/call, what the reducer knows) and every
// sequential workload of 1-4 calls, it ends each call as the world does.
import { describe, expect, test } from 'vitest';
import { MinimalSession } from '../../bench/minimal-reducer.ts';
import { VULNERABLE_000 } from '../../sim/core/cells.ts';
import type { FaultPlan } from '../../sim/core/plan.ts';
import { sequentialWorkloads } from '../../sim/search/exhaustive/exhaustive.ts';
import { runWorld } from '../../sim/world/world.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

function worldEnds(workload: ReturnType<typeof sequentialWorkloads>[number], plan: FaultPlan) {
  const h = runWorld({ combination: VULNERABLE_000, workload, plan }, DEFAULT_WORLD);
  const rpcOf = new Map(h.entries.flatMap((e) => (e.kind === 'request' ? [[e.req, e.rpc] as const] : [])));
  const ends = h.entries.flatMap((e) =>
    e.kind === 'end'
      ? [
          {
            callId: e.callId,
            attempts: e.attempts,
            req: e.req,
            end: e.end === 'result' ? (e.content?.length ? 'result' : 'empty') : 'error',
          },
        ]
      : [],
  );
  return { ends, rpcOf };
}

describe('minimal reducer of the record-000 cell', () => {
  test('ends every call as the world does, on every plan it knows', () => {
    let compared = 0;
    let empty = 0;
    for (const workload of sequentialWorkloads(4, 'any')) {
      for (let reset = -1; reset < 10; reset++) {
        for (let bad = -1; bad < 12; bad++) {
          const plan: FaultPlan = [
            ...(reset >= 0 ? [{ fault: 'config-reset' as const, at: reset }] : []),
            ...(bad >= 0 ? [{ fault: 'http-502' as const, at: bad }] : []),
          ];
          const world = worldEnds(workload, plan);
          if (bad >= 0 && world.rpcOf.get(bad) !== 'tools/call') continue; // a 502 the reducer does not model
          if (reset >= 0 && !world.rpcOf.has(reset)) continue; // past the run's last request
          expect(new MinimalSession(workload, plan).run(), `${JSON.stringify(workload)} ${JSON.stringify(plan)}`).toEqual(world.ends);
          compared++;
          if (world.ends.some((e) => e.end === 'empty')) empty++;
        }
      }
    }
    // It was compared on many plans, and on the cell's failure (a silent empty answer) among them.
    expect(compared).toBeGreaterThan(500);
    expect(empty).toBeGreaterThan(50);
  });
});
