// A fault plan names requests by absolute index, which shrinks well (drop a fault, lower an index)
// except at one kind of local minimum: a fault whose removal renumbers the requests after it (a
// dropped 502 takes its re-initialize with it), so that the plan without it needs every later
// fault moved down at once, which fast-check, shrinking one value at a time, never tries. This
// wrapper adds exactly those candidates (drop one fault, move every later fault down by 1 to 3
// requests), after fast-check's own, so they are tried only where its shrinker is stuck.
import fc from 'fast-check';
import { sortPlan, type PlannedFault } from '../../core/plan.ts';

/** How far the requests after a dropped fault may have moved: a re-initialize and its notification. */
const MAX_SHIFT = 3;

export function renumberedDrops(plan: readonly PlannedFault[]): PlannedFault[][] {
  const sorted = sortPlan(plan);
  const out: PlannedFault[][] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let shift = 1; shift <= MAX_SHIFT; shift++) {
      const later = sorted.slice(i + 1);
      if (!later.some((f) => f.at > 0)) break;
      out.push([...sorted.slice(0, i), ...later.map((f) => ({ ...f, at: Math.max(0, f.at - shift) }))]);
    }
  }
  return out;
}

class RenumberingShrink extends fc.Arbitrary<PlannedFault[]> {
  constructor(private readonly inner: fc.Arbitrary<PlannedFault[]>) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<PlannedFault[]> {
    return this.inner.generate(mrng, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is PlannedFault[] {
    return this.inner.canShrinkWithoutContext(value);
  }
  shrink(value: PlannedFault[], context: unknown): fc.Stream<fc.Value<PlannedFault[]>> {
    const ours = fc.Stream.of(...renumberedDrops(value)).map((v) => new fc.Value(v, undefined));
    return this.inner.shrink(value, context).join(ours);
  }
}

/** A plan arbitrary whose shrinker also drops a fault and renumbers the ones after it. */
export function withRenumberingShrink(arb: fc.Arbitrary<PlannedFault[]>): fc.Arbitrary<PlannedFault[]> {
  return new RenumberingShrink(arb);
}
