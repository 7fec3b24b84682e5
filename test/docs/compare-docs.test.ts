// The parts of README.md and docs/ that the default comparison decides stay true: each generated
// block (bench/compare-docs-blocks.ts: the cause groups, the records' cells, the mitigations of each
// record's vulnerable cell, the machine coverage) is made again from this run's comparison and must
// equal what the page holds (`npm run compare:docs` rewrites them), every "N groups" in the docs is
// the run's count, and the hand-written sentences about the records' cells say what the run shows.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPARE_BLOCKS } from '../../bench/compare-docs-blocks.ts';
import { groupsOf, mitigationLine } from '../../reports/compare-causes.ts';
import type { Comparison } from '../../sim/compare/compare.ts';
import { defaultComparison } from '../fixtures/default-comparison.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const read = (page: string) => readFileSync(`${ROOT}${page}`, 'utf8');
const PAGES = [
  'README.md',
  'docs/reports.md',
  'docs/records.md',
  'docs/findings.md',
  'docs/performance.md',
  'docs/glossary.md',
  'docs/design.md',
];

/** The text between a page's NAME markers, as bench/docs-block.ts writes it. */
function block(page: string, name: string): string {
  const text = read(page);
  const begin = text.indexOf(`<!-- ${name}:begin -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  expect(begin, `${page} has the ${name} markers`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(begin);
  return text.slice(begin + `<!-- ${name}:begin -->`.length, end).trim();
}

describe('the docs the default comparison decides', () => {
  let c: Comparison;

  beforeAll(async () => {
    c = JSON.parse(readFileSync(`${(await defaultComparison()).dir}/compare.json`, 'utf8'));
  }, 300_000);

  it.each(Object.entries(COMPARE_BLOCKS))('%s is what the run gives (npm run compare:docs rewrites it)', (name, { page, make }) => {
    expect(block(page, name)).toBe(make(c).trim());
  });

  it('counts the cause groups as the run does, wherever a page counts them', () => {
    const n = groupsOf(c).length;
    const said = PAGES.flatMap((p) => [...read(p).matchAll(/\b(\d+) (?:cause )?groups\b/g)].map((m) => [p, Number(m[1])] as const));
    expect(said.length).toBeGreaterThan(0);
    for (const [page, count] of said) expect(count, page).toBe(n);
    // The README names no group by number: the numbering is the run's, kept in docs/reports.md.
    expect(read('README.md')).not.toMatch(/\bG\d+\b/);
  });

  it('says of the records’ cells what the run shows (docs/findings.md, docs/records.md, docs/reports.md)', () => {
    const byName = (name: string) => {
      const cell = c.cells.find((x) => x.name === name);
      expect(cell, name).toBeDefined();
      return cell!;
    };
    const verdict = (name: string, property: string) => byName(name).results.find((r) => r.property === property)?.verdict;
    const own = (n: string) => `${n} · record alphabet`;
    const findings = read('docs/findings.md');
    // "compare classes two of these cells silent … because a retried call ran the tool twice"
    expect(findings).toContain('`compare` classes two of these cells silent under the record');
    const dnaSilent = c.cells.filter(
      (x) => x.record === '000' && x.role === 'does-not-apply' && x.alphabet !== 'all faults' && x.class === 'silent',
    );
    expect(dnaSilent.map((x) => x.name)).toEqual([
      own('record 000: server.streaming=accept-header with client.accept=always'),
      own('record 000: client.guards=content-type'),
    ]);
    for (const x of dnaSilent) {
      expect(verdict(x.name, 'no-silent-empty'), x.name).toBe('holds');
      expect(verdict(x.name, 'at-most-once'), x.name).toBe('violated');
    }
    // "`reject` and `compare-init` never recover"
    expect(findings).toContain('`reject` and `compare-init` never recover');
    for (const n of ['record 000: server.reinit=reject', 'record 000: client.guards=compare-init'])
      expect(byName(own(n)).class).toBe('loud, never recovers');
    // Record 003: "(the first two cells are clean); the probe makes the call loud … and never recovers"
    expect(findings).toContain('(the first two cells are clean)');
    for (const n of ['record 003: server.advertise=per-transport', 'record 003: client.parser=adaptive'])
      expect(byName(own(n)).class).toBe('clean');
    expect(byName(own('record 003: client.guards=probe')).class).toBe('loud, never recovers');
    for (const n of ['record 003: server.advertise=per-transport', 'record 003: client.parser=adaptive', 'record 003: client.guards=probe'])
      expect(verdict(own(n), 'no-silent-hang')).toBe('holds');
    // docs/reports.md: "the changes that keep the session consistent hold and heal; the record's detectors make the failure loud"
    expect(read('docs/reports.md')).toContain("the record's detectors make the failure loud");
    const cell = byName(own('record 000 vulnerable'));
    const f = c.findings.find((x) => x.cell === cell.id && x.properties.some((p) => p.property === 'no-silent-empty'))!;
    const fared = new Map(mitigationLine(f)!.holds.map((h) => [h.change, h.fared]));
    for (const change of ['server.reinit=pin-first', 'client.reconnect=replay-cached'])
      expect(fared.get(change), change).toBe('loud, recovers');
    for (const change of ['client.guards+content-type', 'client.guards+compare-init'])
      expect(fared.get(change), change).toBe('loud, never recovers');
  });
});
