// The recommendation counts what the finder's replays show (compare/recommendation-replays.ts): a
// combination whose own random runs never met a mechanism, though another cell's counterexample replayed
// on it does, is silent by it. The reproduction is the full matrix's defect (issue 39) on two of its
// cells: `server.reinit=reject` with a handshake replayed from mutable config duplicates a tool only
// after a rare two-fault sequence; the cell without guards meets one in its 200 runs, the cell with
// `compare-init` does not. Without the replays the two cells' answer left the duplicate execution out of
// "silent in every one", as the full matrix's 1,920 cells left out every mechanism.
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../../sim/compare/matrix.ts';
import { runComparison } from '../../../sim/compare/compare.ts';
import { MITIGATION_PROPERTIES, replayMarkOf } from '../../../sim/compare/mitigations.ts';
import { changedBy, combinationKey } from '../../../sim/compare/recommendation-replays.ts';
import { recommendationText } from '../../../reports/compare-recommendation-text.ts';
import { PROPERTIES } from '../../../properties/properties.ts';
import { runConfig } from '../../../sim/plugins/run-config.ts';
import { combination } from '../../../models/policies.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

describe('a change as the finder names it', () => {
  const c = combination({ client: { guards: ['content-type'] } }, NO_ADDITIONS);
  it('applies to a combination, a set knob by member, whatever the order', () => {
    expect(changedBy(c, 'server.reinit=reject')?.server.reinit).toBe('reject');
    const added = changedBy(c, 'client.guards+probe')!;
    expect(combinationKey(added)).toBe(combinationKey(combination({ client: { guards: ['probe', 'content-type'] } }, NO_ADDITIONS)));
    expect(changedBy(added, 'client.guards-content-type')?.client.guards).toEqual(['probe']);
    expect(combinationKey(added)).not.toBe(combinationKey(c));
    expect(changedBy(c, 'server.reinit=reject + client.guards+probe')).toBeNull();
  });
});

describe('the recommendation over two full-matrix cells, one whose search missed the duplicate', () => {
  const cut = {
    server: { reinit: ['reject'], streaming: ['negotiated'], advertise: ['static'] },
    client: { reconnect: ['replay-mutable', 'new-session'], accept: ['always'], parser: ['pinned'], guards: ['', 'compare-init'] },
  };
  const cells = buildMatrix('full', cut);
  const matrix = { cells, kind: 'full' as const, cut, size: cells.length };

  it('counts the duplicate in both, shown in one by a replay of the other’s counterexample', async () => {
    const c = await runComparison(matrix, runConfig({ seed: 1, runs: 200 }));
    const [bare, guarded] = c.cells;
    expect(c.cells.map((x) => x.combination.client.reconnect)).toEqual(['replay-mutable', 'replay-mutable', 'new-session', 'new-session']);
    expect(guarded!.combination.client.guards).toEqual(['compare-init']);
    // The precondition: the guarded cell's own runs never ran a tool twice, the bare one's did.
    const once = (cell: typeof bare) => cell!.results.find((r) => r.property === 'at-most-once')!.verdict;
    expect([once(bare), once(guarded)]).toEqual(['violated', 'holds']);

    const scope = c.recommendation.scopes[0]!;
    expect(scope.clean).toBe(false);
    const dup = scope.unfixed.find((u) => u.mechanism === 'duplicate-execution');
    expect(dup, 'duplicate execution silent in every combination').toBeDefined();
    expect([dup!.silentIn, dup!.shownByReplay]).toEqual([4, 1]);
    expect(dup!.outside).toMatch(/SEP-3182/);
    // No fix lands inside the matrix, where every combination duplicates: the finder's search from a
    // new-session cell met no duplicate under replay-mutable and calls that change one that holds, but
    // the replayed counterexample shows replay-mutable duplicating; the proposal knob lies outside.
    const claimed = c.findings
      .filter((f) => f.cause?.mechanism === 'duplicate-execution' && f.combination.client.reconnect === 'new-session')
      .flatMap((f) => f.mitigations!.filter((m) => m.holds).map((m) => m.change));
    expect(claimed).toContain('client.reconnect=replay-mutable');
    expect(dup!.fixes.map((x) => x.change)).not.toContain('client.reconnect=replay-mutable');
    expect(dup!.fixes.map((x) => x.change)).toContain('server.idempotency=request-key');

    // The guarded combination ranks as one that runs a tool twice, by the bare cell's finding.
    const g = scope.pair.find((r) => r.cells.includes(guarded!.id))!;
    expect(g.duplicate).toBe(true);
    const shown = g.failures.find((f) => f.mechanism === 'duplicate-execution')!;
    expect(shown.replayed).toEqual({ change: 'client.guards+compare-init' });
    const source = c.findings.find((f) => f.id === shown.finding)!;
    expect(source.cell).toBe(bare!.id);

    // The evidence is a run: that finding's own input on the guarded combination runs the tool twice.
    const finder = runConfig({ seed: 1, runs: 200, properties: PROPERTIES.filter((p) => MITIGATION_PROPERTIES.includes(p.name)) });
    const replay = replayMarkOf(source, guarded!.combination, { config: finder, faults: guarded!.faults, shape: cells[1]!.shape });
    expect(replay).toEqual({ fared: 'silent', silentBy: 'duplicate-execution' });

    const text = recommendationText(c.recommendation, 120).join('\n');
    expect(text).toMatch(/silent in every one: duplicate-execution/);
    expect(text).toMatch(/its own runs never met it and another cell's counterexample, replayed there, did/);
    expect(text).not.toMatch(/no one mechanism/);
  }, 300_000);
});
