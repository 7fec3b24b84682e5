// `audit --write-baseline FILE` / `--baseline FILE` (audit/baseline.ts): the file a run writes reads
// back; the same run against it exits 0; a non-pass the file lacks fails (new); an entry the run no
// longer shows fails (stale). For a server audit (in-process, virtual time: seconds), a client audit
// (a fake harness through the loopback proxy) and a --clients matrix (the fakes' manifest).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareBaseline, formatBaseline, parseBaseline, type BaselineEntry } from '../../../sim/audit/baseline.ts';
import { liveGroups } from '../../../sim/wire/process/process-groups.ts';
import { run, tempDir } from './run.ts';

const entry = (id: string, requirement = ''): BaselineEntry => ({ id, requirement, reason: '', upstream: '' });

describe('the baseline file', () => {
  it('reads back what it writes, with reasons, comments and the conformance plain-name form', () => {
    const written = formatBaseline('client', [{ ...entry('a 2025-11-25', 'r1, r2'), reason: 'it says "no"', upstream: 'x#1' }], 'cmd');
    expect(parseBaseline(written, 'f').client).toEqual([
      { id: 'a 2025-11-25', requirement: 'r1, r2', reason: 'it says "no"', upstream: 'x#1' },
    ]);
    const plain = parseBaseline('# comment\nserver:\n  - stream-cut-call  # why\nclient: []\n', 'f');
    expect(plain.server).toEqual([entry('stream-cut-call')]);
    expect(() => parseBaseline('  - x\n', 'f.yml')).toThrow(/^f\.yml:1: expected 'server:' or 'client:'/);
    expect(() => parseBaseline('server:\n  - id: x\n    colour: red\n', 'f.yml')).toThrow(/^f\.yml:3: unknown field 'colour'/);
  });

  it('three outcomes: the same non-passes pass; a new one fails; a stale entry fails', () => {
    const file = parseBaseline(formatBaseline('server', [entry('a'), entry('b', 'r')], ''), 'f');
    expect(compareBaseline(file, 'server', [entry('b', 'r'), entry('a')]).passed).toBe(true);
    const added = compareBaseline(file, 'server', [entry('a'), entry('b', 'r'), entry('c')]);
    expect([added.passed, added.added.map((e) => e.id), added.stale]).toEqual([false, ['c'], []]);
    const stale = compareBaseline(file, 'server', [entry('a')]);
    expect([stale.passed, stale.added, stale.stale.map((e) => e.id)]).toEqual([false, [], ['b']]);
    // The other section is another audit's: it never makes this one stale.
    expect(compareBaseline(file, 'client', []).passed).toBe(true);
  });
});

/** Write a baseline with `argv`, then check it, and again after dropping its first entry and after adding one. */
async function threeOutcomes(argv: string[], section: 'server' | 'client') {
  const file = join(tempDir('baseline'), 'expected.yml');
  const wrote = await run(...argv, '--write-baseline', file);
  expect(wrote.stdout).toMatch(new RegExp(`wrote ${file} \\(\\d+ expected non-pass\\(es\\) under ${section}:\\)`));
  const text = readFileSync(file, 'utf8');
  const entries = parseBaseline(text, file)[section];
  expect(entries.length).toBeGreaterThan(0);

  const same = await run(...argv, '--baseline', file);
  expect(same.stdout).toMatch(new RegExp(`${entries.length} expected non-pass\\(es\\) seen, 0 new, 0 stale`));
  expect(same.code).toBe(0);

  const rest = entries.slice(1);
  writeFileSync(file, formatBaseline(section, rest, 'edited'));
  const added = await run(...argv, '--baseline', file);
  expect(added.stdout).toMatch(/1 new, 0 stale/);
  expect(added.stdout).toContain(`  new    ${entries[0]!.id}`);
  expect(added.code).toBe(1);

  writeFileSync(file, formatBaseline(section, [...entries, entry('no-such-scenario')], 'edited'));
  const stale = await run(...argv, '--baseline', file);
  expect(stale.stdout).toMatch(/0 new, 1 stale/);
  expect(stale.stdout).toContain('  stale  no-such-scenario');
  expect(stale.code).toBe(1);
  return entries;
}

describe('audit --baseline', () => {
  it('a server audit: same run 0, a new non-pass 1, a stale entry 1', async () => {
    const entries = await threeOutcomes(['audit', '--server', 'sdk-sse', '--quiet'], 'server');
    expect(entries.map((e) => e.id)).toContain('reinit-live-session');
  }, 120_000);

  it('a client audit (--client-cmd): the rows name their revision; a library verdict that fails is an entry', async () => {
    // give-up: the agent's retry recovers (its verdict passes) and the library breaks the re-issue MUST at
    // once: the entry comes from the library verdict alone, in seconds per run (`hang` waits out the bounds).
    const argv = ['audit', '--client-cmd', 'node test/fixtures/clients/fake-client.mjs give-up', '--revision', '2026-07-28'];
    const entries = await threeOutcomes([...argv, '--only', 'cut-reissue-once', '--quiet'], 'client');
    expect(entries).toEqual([entry('cut-reissue-once 2026-07-28', '2026-07-28/client-reissue-new-id')]);
    expect(liveGroups()).toEqual([]);
  }, 240_000);

  it('a --clients matrix: one entry per row that does not pass, named client, revision, server, scenario', async () => {
    const argv = ['audit', '--clients', 'test/fixtures/clients/fakes.json', '--only', 'cut-reissue-once', '--quiet'];
    const file = join(tempDir('baseline'), 'clients.yml');
    const wrote = await run(...argv, '--write-baseline', file);
    expect(wrote.code).toBe(0);
    expect(parseBaseline(readFileSync(file, 'utf8'), file).client).toEqual([]);
    writeFileSync(file, formatBaseline('client', [entry('fake-reissue 2026-07-28 model cut-reissue-once')], 'edited'));
    const stale = await run(...argv, '--baseline', file);
    expect(stale.stdout).toMatch(/0 expected non-pass\(es\) seen, 0 new, 1 stale/);
    expect(stale.code).toBe(1);
  }, 240_000);
});
