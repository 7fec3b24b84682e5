// What a combination can reach: the revisions both its sides speak, and so which knobs configure
// nothing in it (those the knob table, knobs.ts, says only one revision has). Reports show such knobs
// as "not applicable" and the mitigation finder searches combinations that differ only in them once.
import { type Combination, DEFAULT_CLIENT, DEFAULT_SERVER, KNOB_TABLES, type Revision, type Side } from './knobs.ts';

/** Whether a combination can ever speak a revision: the server serves it and the client sends it. */
export function speaks(c: Combination, revision: Revision): boolean {
  const server = c.server.protocol === 'dual' || c.server.protocol === revision;
  const client = c.client.protocol === 'negotiate' || c.client.protocol === revision;
  return server && client;
}

/** Each side's knobs (and set values) that a revision alone has, in table order, and those revisions. */
const REVISION_KNOBS = (['server', 'client'] as const).flatMap((side) =>
  Object.entries(KNOB_TABLES[side])
    .filter(([, spec]) => spec.revision !== undefined || spec.valueRevision !== undefined)
    .map(([knob, spec]) => ({ side, knob, spec })),
);

const REVISIONS: readonly Revision[] = [
  ...new Set(
    REVISION_KNOBS.flatMap(({ spec }) => [spec.revision, ...Object.values(spec.valueRevision ?? {})].filter((r) => r !== undefined)),
  ),
];

/**
 * The knobs (and set values) that configure a mechanism this combination can never reach, because
 * the revision that has it (`revision` in the tables) is not one both sides speak: sessions,
 * `initialize` and transport fallback exist only in 2025-11-25. Reports show them as "not
 * applicable", never as if they had been tested.
 */
export function notApplicable(c: Combination): string[] {
  if (REVISIONS.every((r) => speaks(c, r))) return [];
  const out: string[] = [];
  for (const { side, knob, spec } of REVISION_KNOBS) {
    if (spec.revision !== undefined && !speaks(c, spec.revision)) out.push(`${side}.${knob}`);
    const values = spec.valueRevision;
    if (values === undefined) continue;
    for (const v of (c[side] as unknown as Record<string, string[]>)[knob]!) {
      const revision = values[v];
      if (revision !== undefined && !speaks(c, revision)) out.push(`${side}.${knob}=${v}`);
    }
  }
  return out;
}

/**
 * `c` with every knob `notApplicable` names at its default (those set values dropped): a combination
 * that behaves as `c` in every run, since nothing it changes is ever reached. Combinations that
 * differ only in what they never reach share it, so the mitigation finder searches them once.
 */
export function applicableCombination(c: Combination): Combination {
  const na = notApplicable(c);
  if (na.length === 0) return c;
  const sides = { server: { ...c.server } as Record<string, unknown>, client: { ...c.client } as Record<string, unknown> };
  const defaults = {
    server: DEFAULT_SERVER as unknown as Record<string, unknown>,
    client: DEFAULT_CLIENT as unknown as Record<string, unknown>,
  };
  for (const item of na) {
    const [qualified, value] = item.split('=') as [string, string | undefined];
    const [side, knob] = qualified.split('.') as [Side, string];
    if (value === undefined) sides[side][knob] = defaults[side][knob];
    else sides[side][knob] = (sides[side][knob] as string[]).filter((v) => v !== value);
  }
  return sides as unknown as Combination;
}
