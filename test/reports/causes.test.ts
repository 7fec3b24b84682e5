// Cause groups, the mitigation finder and the marked step, on the default matrix as a user runs it
// (`compare`): the records' own failures get the records' mechanisms and the records' mitigations,
// the shared stream-cut failure leads the groups, and every report shows groups, mitigations, the
// step where the session went wrong, and virtual time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison } from '../fixtures/default-comparison.ts';
import type { Combination } from '../../models/policies.ts';
import { brokenWithoutFaults, worldFaultFree } from '../../sim/compare/fault-free.ts';
import { neighbours } from '../../sim/compare/mitigations.ts';
import { NO_ADDITIONS } from '../../models/additions.ts';
import { DEFAULT_WORLD } from '../../sim/world/world.ts';

const RANK = ['clean', 'loud, recovers', 'loud, never recovers'];

interface Json {
  findings: {
    id: string;
    history: { kind: string; note?: string; fault?: string }[] | null;
    cause: { signature: string; mechanism: string; step: number | null; plan: string };
    combination: Combination;
    mitigations?: { change: string; replay: string; search: { fared: string; sameCause: number } | null; holds: boolean }[];
    wouldBreak?: { change: string; reason: string }[];
  }[];
}

describe('causes and mitigations in the default comparison', () => {
  let out: string;
  let json: Json;
  let stdout: string;
  beforeAll(async () => {
    ({ dir: out, stdout } = await defaultComparison());
    json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
  }, 300_000);

  const finding = (id: string) => json.findings.find((f) => f.id === id)!;

  it("gives record 000's finding the record's mechanism, marked at the narrowing re-initialize", () => {
    const f = finding('record-000-vulnerable-record-alphabet--no-silent-empty');
    expect(f.cause.plan).toBe('config-reset before request 0, then http-502 at request 2');
    expect(f.cause.mechanism).toBe('json-read-as-sse-after-narrowing');
    expect(f.history![f.cause.step!]).toMatchObject({ kind: 'server', note: 'reinitialized' });
  });

  it("gives record 003's finding the fallback mechanism, marked at the fallback", () => {
    const f = finding('record-003-vulnerable-record-alphabet--no-silent-hang');
    expect(f.cause.mechanism).toBe('inline-progress-awaited-on-sse');
    expect(f.history![f.cause.step!]).toMatchObject({ kind: 'client', note: 'fallback' });
  });

  it('marks a cut at the stream-cut fault, and leads the groups with the duplicate every retrying client shares', () => {
    const f = finding('record-000-server-reinit-idempotent-all-faults--no-silent-empty');
    expect(f.cause.signature).toBe('stream-cut at request 2 → the SSE parser read a cut stream as an empty result');
    expect(f.history![f.cause.step!]).toMatchObject({ kind: 'fault', fault: 'stream-cut' });
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    expect(md.indexOf('## Causes')).toBeLessThan(md.indexOf('## Matrix'));
    expect(md).toMatch(
      /\| G4 \| 8: 8, 12, [^|]+\| [^|]+\| 🔇 \| stream-cut at request 2 \| the SSE parser read a cut stream as an empty result \|/,
    );
    // Under the whole vocabulary every client that re-sends a call runs a tool twice after a reset
    // connection (2025-11-25 servers do not cancel): the cause most cells share.
    expect(stdout).toMatch(
      /Causes \(findings with the same minimal plan and mechanism\), most cells first:\n {2}G1 {2}20 cells, SILENT: connection-reset at request 2 → the retry after a failed attempt \(connection reset\) ran\n {4}the tool again \(duplicate execution\)/,
    );
  });

  it("finds the record's mitigations for record 000: pin, cache or a new session heal; reject and the detectors are loud and stuck", () => {
    const m = finding('record-000-vulnerable-record-alphabet--no-silent-empty').mitigations!;
    const holds = new Map(m.filter((x) => x.holds).map((x) => [x.change, x.search!.fared]));
    for (const c of [
      'server.reinit=pin-first',
      'server.reinit=idempotent',
      'client.reconnect=replay-cached',
      'client.reconnect=new-session',
    ])
      expect(holds.get(c), c).toBe('loud, recovers');
    for (const c of ['server.reinit=reject', 'client.guards+content-type', 'client.guards+compare-init', 'server.streaming=accept-header'])
      expect(holds.get(c), c).toBe('loud, never recovers');
    expect(m.find((x) => x.change === 'server.reinit=new-session')).toMatchObject({ replay: 'silent', holds: false });
  });

  it('never proposes a change that breaks the fault-free run: each is listed apart, with its reason', () => {
    const annotated = json.findings.filter((f) => f.mitigations);
    expect(annotated.length).toBeGreaterThan(50);
    for (const f of annotated) {
      const near = new Map(neighbours(f.combination, NO_ADDITIONS).map((n) => [n.change, n.combination]));
      // Judged here again, apart from the finder: every change it lists works with no fault at all.
      for (const m of f.mitigations!)
        expect(brokenWithoutFaults(near.get(m.change)!, worldFaultFree(near.get(m.change)!, DEFAULT_WORLD)), m.change).toBeNull();
      for (const w of f.wouldBreak!) {
        expect(brokenWithoutFaults(near.get(w.change)!, worldFaultFree(near.get(w.change)!, DEFAULT_WORLD))?.reason).toBe(w.reason);
        expect(f.mitigations!.map((m) => m.change)).not.toContain(w.change);
      }
    }
    // Every default cell speaks 2025-11-25 on both sides: moving one side alone breaks it.
    expect(finding('record-003-vulnerable-record-alphabet--no-silent-hang').wouldBreak).toEqual([
      { change: 'server.protocol=2026-07-28', reason: 'the client speaks only 2025-11-25; the server only 2026-07-28' },
      { change: 'client.protocol=2026-07-28', reason: 'the client speaks only 2026-07-28; the server only 2025-11-25' },
    ]);
  });

  it('ranks the changes that hold: clean, then loud and recovers, then loud and never recovers', () => {
    for (const f of json.findings.filter((x) => x.mitigations)) {
      const ranks = f.mitigations!.filter((m) => m.holds).map((m) => Math.max(RANK.indexOf(m.replay), RANK.indexOf(m.search!.fared)));
      expect(ranks, f.id).toEqual([...ranks].sort((a, b) => a - b));
      // Those that hold come before those that do not.
      const holds = f.mitigations!.map((m) => m.holds);
      expect(holds, f.id).toEqual([...holds].sort((a, b) => Number(b) - Number(a)));
    }
    const seed000 = finding('record-000-vulnerable-record-alphabet--no-silent-empty').mitigations!.filter((m) => m.holds);
    expect(seed000.slice(0, 5).map((m) => m.search!.fared)).toEqual(Array(5).fill('loud, recovers'));
    expect(seed000.at(-1)!.search!.fared).toBe('loud, never recovers');
  });

  it("finds the record's mitigations for record 003: per-transport and adaptive clean, the probe loud", () => {
    const m = finding('record-003-vulnerable-record-alphabet--no-silent-hang').mitigations!;
    const holds = new Map(m.filter((x) => x.holds).map((x) => [x.change, x.search!.fared]));
    // Ranked: the two clean changes lead.
    expect(m.slice(0, 2).map((x) => x.change)).toEqual(['server.advertise=per-transport', 'client.parser=adaptive']);
    expect(holds.get('server.advertise=per-transport')).toBe('clean');
    expect(holds.get('client.parser=adaptive')).toBe('clean');
    expect(holds.get('client.guards+probe')).toBe('loud, never recovers');
    expect(m.find((x) => x.change === 'server.reinit=pin-first')).toMatchObject({ holds: false });
  });

  it('shows groups, mitigations, the marked step and virtual time in the Markdown and the HTML', () => {
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    expect(md).toContain('## What changes what');
    expect(md).toMatch(/\| `server\.advertise=per-transport` \| \d+ \|/);
    expect(md).toMatch(/- \*\*mitigations\*\* holds with `server\.reinit=pin-first` \(🔊 loud, recovers\)/);
    expect(md).toMatch(/client: fallback session=s1 from=streamable-http to=sse {3}◀ where the session went wrong/);
    expect(md).toMatch(/Note over C,S: ▶ where the session went wrong \(t=10 ms\)/);
    expect(md).toMatch(/Note over C,S: ⏱ 30\.0 s of virtual time pass \(t=30020 ms\)/);
    expect(md).toMatch(/C->>N: t=20 · 2: POST tools\/call call 0 \[s1\]/);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toContain('<section id="causes"><h2>Causes</h2>');
    expect(html).toContain('<section id="changes"><h2>What changes what</h2>');
    expect(html).toMatch(/<div class="ev [a-z]+ marked"[^>]*><b class="here">▶ where the session went wrong<\/b>/);
    expect(html).toMatch(/<span class="gap" title="virtual time passed">\+30\.0 s<\/span>/);
  });
});
