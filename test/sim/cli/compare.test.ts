// `compare` as the README's main job: the three reports and the counterexample files, the records'
// findings in them, byte-identical JSON for the same seed, cuts, shards that merge into the
// unsharded report, interruption by a time limit and by SIGINT, and every bad input.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison } from '../../fixtures/default-comparison.ts';
import { withoutTiming } from '../../fixtures/without-timing.ts';
import { parseCounterexample } from '../../../sim/corpus/counterexample-parse.ts';
import { replay } from '../../../sim/corpus/replay.ts';
import { ROOT, run, tempDir } from './run.ts';
import { EMPTY_REGISTRY } from '../../../sim/plugins/loaded.ts';

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('compare, the default matrix', () => {
  let a: string;
  let b: string;
  let stdout: string;
  beforeAll(async () => {
    // a: the suite's default comparison (its own process, test/fixtures/default-comparison.ts);
    // b: the same command again, in this process, for determinism across processes.
    ({ dir: a, stdout } = await defaultComparison());
    b = tempDir('compare-b');
    expect((await run('compare', '--quiet', '--out', b)).code).toBe(0);
  }, 300_000);

  it('writes compare.md, compare.html, compare.json and one counterexample file per finding', () => {
    const json = JSON.parse(read(a, 'compare.json'));
    expect(json.cells).toHaveLength(42);
    expect(json.interrupted).toBe(false);
    expect(readdirSync(join(a, 'counterexamples'))).toHaveLength(json.findings.length);
    expect(read(a, 'compare.html')).toMatch(/^<!doctype html>/);
    expect(stdout).toContain('wrote ');
    expect(stdout).toMatch(/^\s*1\s+record 000 vulnerable\s+FAIL/m);
  });

  it('saves counterexample files that all replay identically', () => {
    const dir = join(a, 'counterexamples');
    for (const name of readdirSync(dir)) {
      const r = replay(parseCounterexample(read(dir, name)), EMPTY_REGISTRY);
      expect(r.differences, name).toEqual([]);
    }
  });

  it('names each cell with its alphabet, both for the record alphabet and the whole vocabulary', () => {
    const names = JSON.parse(read(a, 'compare.json')).cells.map((c: { name: string }) => c.name);
    expect(names.slice(0, 2)).toEqual(['record 000 vulnerable · record alphabet', 'record 000 vulnerable · all faults']);
    expect(names).toContain('record 003: client.guards=probe · record alphabet');
  });

  it('shows the record-000 and record-003 findings in the Markdown with their minimal plans and Mermaid diagrams', () => {
    const md = read(a, 'compare.md');
    const section = (heading: string) => md.slice(md.indexOf(heading), md.indexOf('\n### ', md.indexOf(heading) + 1));
    const s000 = section('record 000 vulnerable · record alphabet: no-silent-empty');
    expect(s000).toContain('1. `config-reset before request 0` 2. `http-502 at request 2`');
    expect(s000).toContain('```mermaid\nsequenceDiagram');
    expect(s000).toContain('Note over N: ⚡ http-502 (request 2)');
    expect(s000).toContain('npx mcp-faultsim replay counterexamples/record-000-vulnerable-record-alphabet--no-silent-empty.json');
    const s003 = section('record 003 vulnerable · record alphabet: no-silent-hang');
    expect(s003).toContain('1. `strip-header:transfer-encoding at request 0`');
    expect(s003).toContain('silent-hang');
    expect(md).toMatch(/\| 1 \| record 000 vulnerable · record alphabet \| 🔇 silent \|/);
  });

  it('reports vacuity: a property never reached is vacuous, with the counts of what was reached', () => {
    const cell = JSON.parse(read(a, 'compare.json')).cells[0];
    expect(cell.results.find((r: { property: string }) => r.property === 'transport-expressible').verdict).toBe('vacuous');
    expect(cell.stats.reconnects).toBeGreaterThan(0);
    expect(read(a, 'compare.md')).toContain('| reconnects | re-inits | fallbacks | faults fired (acted) | vacuous |');
    expect(read(a, 'compare.md')).toMatch(/http-502 ×\d+ \(\d+\)/);
  });

  it('certifies each finding minimal or not, and lists what no cell of the comparison reached', () => {
    const md = read(a, 'compare.md');
    expect(md).toContain(
      "no-silent-empty** violated: call 0 returned a well-formed result that differs from the fault-free run's (\\[\\]) with no error — *minimal: no plan with fewer faults violates it on this workload (checked exhaustively)*",
    );
    const coverage = md.slice(md.indexOf('## Machine coverage'), md.indexOf('## Findings'));
    expect(coverage).toMatch(/\*\*client\*\*: \d+ of \d+ states, \d+ of \d+ transitions/);
    // No default cell's workload lists tools, so no cell can have reached the server's tools/list branch.
    expect(coverage).toContain('transition never taken: `serving: REQUEST [isToolList] → (stays)`');
    expect(coverage).not.toContain('serving: REQUEST [isToolCall]');
    expect(md).not.toContain('## Other per-cell data');
    expect(md).not.toContain('## Exhaustive search');
  });

  it('gives byte-identical reports for the same seed, apart from the JSON timing', () => {
    const ja = read(a, 'compare.json');
    const jb = read(b, 'compare.json');
    const { wallMs, cellsDoneMs } = JSON.parse(ja).timing;
    expect(wallMs).toBeTypeOf('number');
    expect(cellsDoneMs).toBeGreaterThan(0); // the cells were done before the finder's last searches
    expect(cellsDoneMs).toBeLessThanOrEqual(wallMs);
    expect(withoutTiming(ja)).toBe(withoutTiming(jb));
    expect(ja.replace(/"timing": [\s\S]*$/, '')).toBe(jb.replace(/"timing": [\s\S]*$/, ''));
    expect(read(a, 'compare.md')).toBe(read(b, 'compare.md'));
    expect(read(a, 'compare.html')).toBe(read(b, 'compare.html'));
    for (const f of readdirSync(join(a, 'counterexamples')))
      expect(read(join(a, 'counterexamples'), f)).toBe(read(join(b, 'counterexamples'), f));
  });

  it('shards merge into the unsharded report, identical outside timing', async () => {
    const shards = [1, 2, 3].map(() => tempDir('shard'));
    for (const [i, dir] of shards.entries()) {
      const r = await run('compare', '--quiet', '--shard', `${i + 1}/3`, '--out', dir);
      expect(r.code).toBe(0);
      expect(readdirSync(dir)).toEqual(['compare.json']);
    }
    const merged = tempDir('merged');
    const m = await run('merge', ...shards.map((d) => join(d, 'compare.json')).reverse(), '--out', merged);
    expect(m.code, m.stderr).toBe(0);
    expect(withoutTiming(read(merged, 'compare.json'))).toBe(withoutTiming(read(a, 'compare.json')));
    expect(read(merged, 'compare.md')).toBe(read(a, 'compare.md'));
    expect(read(merged, 'compare.html')).toBe(read(a, 'compare.html'));
    expect(readdirSync(join(merged, 'counterexamples'))).toEqual(readdirSync(join(a, 'counterexamples')));
    expect(JSON.parse(read(merged, 'compare.json')).timing.shards).toHaveLength(3);
  });
});

describe('compare --json, cuts and matrices', () => {
  it('--json prints the cells (one check object each) and the timing', async () => {
    const r = await run('compare', '--json', '--runs', '30', '--server', 'reinit=reject|pin-first', '--out', tempDir('json'));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toContain('timing');
    expect(out.cells.map((c: { name: string }) => c.name)).toEqual([
      'record 000: server.reinit=reject · record alphabet',
      'record 000: server.reinit=reject · all faults',
      'record 000: server.reinit=pin-first · record alphabet',
      'record 000: server.reinit=pin-first · all faults',
      'record 000: server.reinit=reject with client.reconnect=new-session · record alphabet',
      'record 000: server.reinit=reject with client.reconnect=new-session · all faults',
    ]);
    for (const cell of out.cells)
      expect(Object.keys(cell)).toEqual(expect.arrayContaining(['combination', 'seed', 'runs', 'faults', 'results', 'stats', 'class']));
  });

  it('--matrix full takes every value of every knob, guards as every subset, and a cut narrows it', async () => {
    const r = await run(
      'compare',
      '--json',
      '--matrix',
      'full',
      '--runs',
      '10',
      '--server',
      'reinit=honor-last,streaming=negotiated',
      '--client',
      'reconnect=replay-mutable,accept=always',
      '--out',
      tempDir('full'),
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.matrix.size).toBe(2 * 2 * 8); // advertise × parser × guard subsets
    const guards = new Set(out.cells.map((c: { combination: { client: { guards: string[] } } }) => c.combination.client.guards.join('+')));
    expect(guards).toEqual(
      new Set([
        '',
        'content-type',
        'compare-init',
        'probe',
        'content-type+compare-init',
        'content-type+probe',
        'compare-init+probe',
        'content-type+compare-init+probe',
      ]),
    );
  });
});

describe('compare stops early and keeps what finished', () => {
  it('--time-limit writes the finished cells, marked interrupted, and exits 124', async () => {
    const dir = tempDir('limit');
    const r = await run('compare', '--quiet', '--matrix', 'full', '--runs', '30', '--time-limit', '0.5', '--out', dir);
    expect(r.code).toBe(124);
    const json = JSON.parse(read(dir, 'compare.json'));
    expect(json.interrupted).toBe(true);
    expect(json.timing.stoppedBy).toBe('time-limit');
    expect(json.cells.length).toBeGreaterThan(0);
    expect(json.cells.length).toBeLessThan(json.matrix.size);
    expect(read(dir, 'compare.md')).toContain(`**Interrupted:** ${json.cells.length} of ${json.matrix.size} cells finished`);
    expect(read(dir, 'compare.html')).toContain('class="interrupted"');
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]); // no temp file left behind
  });

  it('SIGINT writes the finished cells, marked interrupted, and exits 130', () => {
    const dir = tempDir('sigint');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/interrupt-compare.ts', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted; writing what finished');
    const json = JSON.parse(read(dir, 'compare.json'));
    expect(json.interrupted).toBe(true);
    expect(json.timing.stoppedBy).toBe('sigint');
    expect(json.cells.length).toBeGreaterThan(0);
    expect(json.cells.length).toBeLessThan(json.matrix.size);
  });
});

describe('compare and merge: bad input is one line on stderr and exit 2', () => {
  const dir = tempDir('bad');
  const cases: [string, string[], RegExp][] = [
    ['unknown matrix', ['compare', '--matrix', 'huge'], /unknown --matrix 'huge' \(valid: records, full, migration\)/],
    [
      'unknown knob in a cut',
      ['compare', '--server', 'retries=3'],
      /unknown server knob 'retries' \(valid: reinit, streaming, advertise, protocol, idempotency\)/,
    ],
    [
      'unknown value in a cut',
      ['compare', '--client', 'parser=pinned|psychic'],
      /unknown client.parser value 'psychic' \(valid: pinned, adaptive\)/,
    ],
    [
      'a cut that leaves nothing',
      ['compare', '--client', 'guards=content-type+probe'],
      /the cut leaves no cell of the records matrix \(to compare any combination, add --matrix full\)/,
    ],
    ['a bad shard', ['compare', '--shard', '3/2'], /--shard must be i\/n with 1 <= i <= n/],
    ['a shard that is not i/n', ['compare', '--shard', 'half'], /--shard must be i\/n/],
    ['a bad time limit', ['compare', '--time-limit', 'soon'], /--time-limit must be a positive number of seconds/],
    ['a stray argument', ['compare', 'everything'], /compare: unexpected argument 'everything'/],
    ['a missing policy module', ['compare', '--policies', 'nope.ts'], /--policies nope.ts: cannot load it/],
    [
      'a policy module of the wrong shape',
      ['compare', '--policies', 'test/fixtures/policies/bad-shape.ts'],
      /--policies test\/fixtures\/policies\/bad-shape.ts: server\.reinit\.no-decide\.decide should be a function, not missing$/m,
    ],
    ['merge of nothing', ['merge'], /merge needs the compare.json of every shard/],
    ['merge of a missing file', ['merge', join(dir, 'none.json')], /none.json: cannot read it \(ENOENT\)/],
  ];
  for (const [name, argv, message] of cases) {
    it(name, async () => {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('takes --matrix seeds as the records matrix, saying once on stderr that the name is old', () => {
    const r = spawnSync(
      process.execPath,
      ['bin/mcp-faultsim.js', 'compare', '--matrix', 'seeds', '--client', 'guards=content-type+probe'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'mcp-faultsim compare: --matrix seeds is now --matrix records (the old name still works)',
      'mcp-faultsim: the cut leaves no cell of the records matrix (to compare any combination, add --matrix full)',
    ]);
  });

  it('merge refuses malformed, truncated, foreign and incomplete shard files', async () => {
    const s1 = tempDir('m1');
    const s2 = tempDir('m2');
    expect((await run('compare', '--quiet', '--runs', '10', '--server', 'reinit=reject', '--shard', '1/2', '--out', s1)).code).toBe(0);
    expect((await run('compare', '--quiet', '--runs', '11', '--server', 'reinit=reject', '--shard', '2/2', '--out', s2)).code).toBe(0);
    const good = read(s1, 'compare.json');
    const write = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const expectBad = async (files: string[], message: RegExp) => {
      const r = await run('merge', ...files, '--out', tempDir('never'));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    };
    await expectBad([write('trunc.json', good.slice(0, good.length / 2))], /not valid JSON .*truncated/);
    await expectBad([write('other.json', '{"hello": 1}')], /not a compare.json file/);
    await expectBad([write('v9.json', good.replace('"version": 1', '"version": 9'))], /version 9 is not supported/);
    await expectBad([join(s1, 'compare.json')], /missing shard 2\/2/);
    await expectBad([join(s1, 'compare.json'), join(s1, 'compare.json')], /shard 1\/2 is also given/);
    await expectBad([join(s1, 'compare.json'), join(s2, 'compare.json')], /its runs differs/);
    // Issue 12: a field of the wrong kind used to end in exit 3, "internal error".
    // biome-ignore lint/suspicious/noExplicitAny: the test corrupts a shard on purpose
    const edited = (name: string, edit: (c: Record<string, any>) => void) => {
      const c = JSON.parse(good);
      edit(c);
      return write(name, JSON.stringify(c));
    };
    const s3 = tempDir('m3');
    expect((await run('compare', '--quiet', '--runs', '10', '--server', 'reinit=reject', '--shard', '2/2', '--out', s3)).code).toBe(0);
    const results = edited('results.json', (c) => (c.cells[0].results = 'all fine'));
    await expectBad([results, join(s3, 'compare.json')], /results\.json: cells\[0\]\.results should be an array, not string$/m);
    await expectBad(
      [edited('verdict.json', (c) => (c.cells[0].results[0].verdict = 'maybe'))],
      /cells\[0\]\.results\[0\]\.verdict should be "holds" or "violated" or "vacuous", not "maybe"$/m,
    );
    await expectBad([edited('size.json', (c) => (c.matrix.size = -1))], /size\.json: matrix\.size should be ≥ 0, not -1$/m);
  });
});

describe('compare --depth', () => {
  it('runs the exhaustive search beside the random one and reports it per cell', async () => {
    const dir = tempDir('compare-depth');
    const r = await run(
      'compare',
      '--quiet',
      '--out',
      dir,
      '--server',
      'reinit=pin-first|honor-last,streaming=negotiated,advertise=static',
      '--client',
      'guards=,reconnect=replay-mutable,accept=always,parser=pinned',
      '--depth',
      '2',
      '--workers',
      '1',
    );
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(read(dir, 'compare.json'));
    const vulnerable = json.cells.find((c: { name: string }) => c.name === 'record 000 vulnerable · record alphabet');
    const pinFirst = json.cells.find((c: { name: string }) => c.name === 'record 000: server.reinit=pin-first · record alphabet');
    const exhaustive = (cell: { results: { property: string; exhaustive: unknown }[] }) =>
      cell.results.find((x) => x.property === 'no-silent-empty')!.exhaustive;
    expect(exhaustive(vulnerable)).toMatchObject({
      depth: 2,
      verdict: 'violated',
      shortest: {
        faults: [
          { fault: 'config-reset', at: 0 },
          { fault: 'http-502', at: 2 },
        ],
      },
    });
    expect(exhaustive(pinFirst)).toMatchObject({ depth: 2, verdict: 'holds', reached: true });
    const md = read(dir, 'compare.md');
    expect(md).toContain('## Exhaustive search');
    expect(md).toMatch(/\*\*no-silent-empty\*\* holds up to depth 2 \([\d,]+ distinct states, [\d,]+ plans\)/);
    expect(read(dir, 'compare.html')).toContain('<section id="exhaustive"><h2>Exhaustive search</h2>');
  });

  it('writes the same JSON on one worker as on two (one pool for the whole matrix)', async () => {
    const cut = [
      '--server',
      'reinit=pin-first|honor-last,streaming=negotiated,advertise=static',
      '--client',
      'guards=,reconnect=replay-mutable,accept=always,parser=pinned',
    ];
    const [one, two] = await Promise.all(
      ['1', '2'].map(async (workers) => {
        const dir = tempDir(`compare-depth-w${workers}`);
        const r = await run('compare', '--quiet', '--runs', '20', '--out', dir, ...cut, '--depth', '1', '--workers', workers);
        expect(r.code, r.stderr).toBe(0);
        return withoutTiming(read(dir, 'compare.json'));
      }),
    );
    expect(two).toBe(one);
    // Every cell carries its exhaustive block: the search ran for all of them, not for the first only.
    const cells = JSON.parse(one!).cells as { results: { exhaustive?: { depth: number } }[] }[];
    expect(cells.length).toBeGreaterThan(1);
    for (const c of cells) expect(c.results.every((x) => x.exhaustive?.depth === 1)).toBe(true);
  });
});

describe('compare on two cell threads', () => {
  it('writes the reports one cell thread writes (--workers 2)', async () => {
    const cut = ['--matrix', 'full', '--server', 'reinit=honor-last,streaming=negotiated,advertise=static'];
    const args = [...cut, '--client', 'reconnect=replay-mutable,accept=always', '--runs', '30', '--quiet'];
    const one = tempDir('threads-1');
    const two = tempDir('threads-2');
    expect((await run('compare', ...args, '--workers', '1', '--out', one)).code).toBe(0);
    expect((await run('compare', ...args, '--workers', '2', '--out', two)).code).toBe(0);
    expect(JSON.parse(read(two, 'compare.json')).cells).toHaveLength(16);
    expect(withoutTiming(read(two, 'compare.json'))).toBe(withoutTiming(read(one, 'compare.json')));
    expect(read(two, 'compare.md')).toBe(read(one, 'compare.md'));
    expect(readdirSync(join(two, 'counterexamples')).sort()).toEqual(readdirSync(join(one, 'counterexamples')).sort());
  }, 120_000);
});
