// What read wrong in the default comparison's reports (issue 12, "Fix what reads wrong"), run as a
// user runs it: capability notes as names, finding links numbered as their sections, a terminal
// table that fits 120 columns, counted nouns, an empty coverage heading, explore's incomplete exit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison } from '../fixtures/default-comparison.ts';
import { run } from '../sim/cli/run.ts';
import { table, wrap } from '../../reports/table.ts';
import { describeEntry } from '../../reports/history-text.ts';

describe('the default comparison reads right', () => {
  let out: string;
  let stdout: string;
  beforeAll(async () => {
    ({ dir: out, stdout } = await defaultComparison());
  }, 300_000);

  it('names capabilities, never [object Object] (the admit note carries objects)', () => {
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(md).not.toContain('[object Object]');
    expect(html).not.toContain('[object Object]');
    expect(md).toMatch(/client: admit callId=0 req=2 session=s1 caps=\{streaming-progress \(inline\)\}/);
  });

  it('numbers a finding link as the section it opens, in Markdown and HTML', () => {
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    const sections = new Map([...md.matchAll(/### <a id="([^"]+)"><\/a>(\d+)\. /g)].map((m) => [m[1]!, m[2]!]));
    const links = [...md.matchAll(/\[(\d+)\]\(#(finding-[^)]+)\)/g)];
    expect(links.length).toBeGreaterThan(40);
    for (const [, n, anchor] of links) expect(sections.get(anchor!)).toBe(n);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    const summaries = new Map(
      [...html.matchAll(/<details class="finding" id="([^"]+)"[^>]*>\n<summary>(\d+)\. /g)].map((m) => [m[1]!, m[2]!]),
    );
    const hrefs = [...html.matchAll(/<a class="flink" href="#([^"]+)"[^>]*>(\d+)<\/a>/g)];
    expect(hrefs.length).toBe(links.length);
    for (const [, id, n] of hrefs) expect(summaries.get(id!)).toBe(n);
  });

  it('fits the terminal table in 120 columns, folding long cell names', () => {
    const lines = stdout.split('\n');
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(120);
    expect(stdout).toContain('empty = no-silent-empty');
    expect(stdout).toMatch(/^ 3 {2}record 000: +ok .*\n {4}server\.reinit=reject\n {4}· record alphabet\n/m);
    // No folded line reads only a joining word ("with"): it goes down with the word it joins.
    expect(stdout).not.toMatch(/^ {4}(with|and|or|·)$/m);
  });
});

describe('table folding', () => {
  it('wraps the fold column at word boundaries and keeps the other cells on the first line', () => {
    const t = table(['#', 'name', 'v'], [['1', 'a long name that folds', 'ok']], ['r'], { width: 16, fold: 1, minimum: 8 });
    expect(t.split('\n')).toEqual(['#  name       v', '-  ---------  --', '1  a long     ok', '   name that', '   folds']);
  });

  it('breaks before a " · " where it can', () => {
    expect(wrap('record 000: server.reinit=reject · all faults', 36)).toEqual(['record 000: server.reinit=reject', '· all faults']);
  });
});

describe('counted nouns and empty headings', () => {
  it('capability objects read as names in any note', () => {
    const step = describeEntry({
      t: 0,
      kind: 'client',
      note: 'admit',
      callId: 0,
      req: 2,
      session: 's1',
      caps: [{ cap: 'streaming-progress', encoding: 'frames' }],
    } as never);
    expect(step.text).toContain('caps={streaming-progress (frames)}');
  });

  it('check --wire prints no empty "coverage over" heading', async () => {
    const r = await run('check', '--wire', '--client', 'sdk', '--server', 'sdk-json', '--faults', 'config-reset', '--runs', '3', '--quiet');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/coverage over [^\n]*: *\n/);
    expect(r.stdout).toContain('machine coverage: not measured');
  });

  it('check --depth 1 says "up to 1 fault"', async () => {
    const r = await run('check', '--faults', 'http-502', '--runs', '5', '--depth', '1', '--workers', '1', '--quiet');
    expect(r.stdout).toContain('every plan of up to 1 fault,');
  });

  it('a recovers violation counts the calls after the last fault in words that agree', async () => {
    const r = await run('check', '--server', 'reinit=reject', '--faults', 'http-502', '--property', 'recovers', '--quiet');
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/invoked 1 calls/);
    expect(r.stdout).toMatch(/call number \d+ invoked after the last fault/);
  });

  it('explore stopped by --max-states exits 4 and says it is incomplete', async () => {
    const r = await run(
      'explore',
      '--server',
      'reinit=pin-first',
      '--faults',
      'http-502,config-reset',
      '--property',
      'no-silent-empty',
      '--depth',
      '3',
      '--max-states',
      '20',
      '--workers',
      '1',
      '--quiet',
    );
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/INCOMPLETE: the state budget \(--max-states\) stopped it; verdicts hold only to depth \d, not 3/);
  });
});
