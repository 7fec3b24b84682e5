// The vocabulary written once (issue 36 item 2): one policy module, written here and nowhere else,
// declares a knob of its own, a fault and a property, and each is found wherever the built-ins are:
// in `list`, in a matrix (a cut of the full matrix on the new knob), in the reports (terminal,
// Markdown, HTML, JSON), and in the file schema (compare.json validates, `merge` and `replay` read it
// back). The fault reads the knob, so the knob's two values give two different cells.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { comparisonSchema } from '../../../sim/compare/comparison-schema.ts';
import { run, tempDir } from '../cli/run.ts';

// Plain JavaScript with no import: a module a designer could keep anywhere.
const MODULE = `export default {
  server: {
    knobs: {
      shedding: {
        values: ['off', 'on'],
        default: 'off',
        meaning: 'whether the load balancer sheds load in front of this server',
        describe: { off: 'every request is passed on', on: 'an overload answers 503 at once' },
      },
    },
  },
  faults: {
    'overload-503': {
      describe: 'an overload: where the server sheds load (server.shedding=on) the load balancer answers 503',
      request: ({ request, knobs }) =>
        knobs['server.shedding'] === 'on'
          ? { applied: true, detail: 'shed ' + request.body.rpc, answer: { status: 503, headers: {}, body: { kind: 'empty' } } }
          : { applied: false, detail: 'shedding is off' },
    },
  },
  properties: {
    'nothing-shed': {
      holdsWhen: 'the load balancer shed no request of the run',
      family: 'recovery',
      column: 'shed',
      check: (history) => {
        const fired = history.entries.filter((e) => e.kind === 'fault' && e.fault === 'overload-503');
        const shed = fired.filter((e) => e.applied);
        return shed.length === 0
          ? { holds: true, reached: fired.length > 0 }
          : { holds: false, reached: true, why: 'request ' + shed[0].at + ' was shed' };
      },
    },
  },
};
`;

const dir = tempDir('module-vocabulary');
const module = join(dir, 'shedding.mjs');
const out = join(dir, 'out');
const merged = join(dir, 'merged');
// Two cells of the full matrix that differ only in the new knob (the rest fixed by the cut).
const CUT = [
  '--server',
  'reinit=reject,streaming=negotiated,advertise=static,shedding=off|on',
  '--client',
  'reconnect=new-session,accept=always,parser=adaptive,guards=',
];

interface Cell {
  name: string;
  combination: { server: Record<string, unknown> };
  stats: { faultsFired: Record<string, number>; faultsApplied: Record<string, number> };
  results: { property: string; verdict: string }[];
}

let summary = '';
let report: { properties: string[]; matrix: { cut: { server: Record<string, string[]> } }; cells: Cell[] };

beforeAll(async () => {
  writeFileSync(module, MODULE);
  const r = await run('compare', '--policies', module, '--matrix', 'full', ...CUT, '--runs', '30', '--out', out);
  expect(r.stderr).toBe('');
  summary = r.stdout;
  report = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
}, 300_000);

const cellWith = (shedding: string) => report.cells.find((c) => c.combination.server.shedding === shedding)!;

describe('a module that declares a knob, a fault and a property', () => {
  it('is listed: the knob with its values, default and source, the fault, the property with its family', async () => {
    const text = (await run('list', '--policies', module)).stdout;
    expect(text).toContain(`server.shedding — whether the load balancer sheds load in front of this server (default: off; from ${module})`);
    expect(text).toMatch(/^ {6}on +an overload answers 503 at once$/m);
    expect(text).toMatch(/^ {2}overload-503\n {6}fires at request n: an overload: where the server sheds load/m);
    expect(text).toMatch(/^ {2}nothing-shed +recovery +holds when the load balancer shed no request of the run$/m);
    const json = JSON.parse((await run('list', '--json', '--policies', module)).stdout);
    expect(json.server.shedding).toMatchObject({ values: ['off', 'on'], default: 'off', source: module });
    expect(json.faults.map((f: { fault: string }) => f.fault)).toContain('overload-503');
    expect(json.properties.at(-1)).toEqual({
      property: 'nothing-shed',
      holdsWhen: 'the load balancer shed no request of the run',
      family: 'recovery',
      column: 'shed',
    });
  });

  it('is a matrix dimension: the cut keeps both values, and the fault acts only where the knob says so', () => {
    expect(report.matrix.cut.server.shedding).toEqual(['off', 'on']);
    expect(report.cells.map((c) => c.name)).toEqual([
      'reinit=reject streaming=negotiated advertise=static shedding=off · reconnect=new-session accept=always parser=adaptive guards=none',
      'reinit=reject streaming=negotiated advertise=static shedding=on · reconnect=new-session accept=always parser=adaptive guards=none',
    ]);
    expect(report.properties.at(-1)).toBe('nothing-shed');
    const off = cellWith('off');
    const on = cellWith('on');
    expect(off.stats.faultsFired['overload-503']).toBeGreaterThan(0);
    expect(off.stats.faultsApplied['overload-503'] ?? 0).toBe(0);
    expect(on.stats.faultsApplied['overload-503']).toBeGreaterThan(0);
    const verdict = (c: Cell) => c.results.find((r) => r.property === 'nothing-shed')!.verdict;
    expect([verdict(off), verdict(on)]).toEqual(['holds', 'violated']);
  });

  it('is in the reports: the terminal column, the Markdown cells, the HTML filter and rows', () => {
    expect(summary).toMatch(/^#\s+cell\s.*\bonce\s+shed\s+ok\/loud\/silent/m);
    expect(summary).toMatch(/^2 +reinit=reject[^\n]*?\s{2,}(\S+\s+){7}FAIL /m);
    expect(summary).toContain('shed = nothing-shed');
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    expect(md).toContain('| server (reinit · streaming · advertise · protocol · idempotency · shedding) |');
    expect(md).toContain('| reject · negotiated · static · 2025-11-25 · none · on |');
    expect(md).toMatch(/\| nothing-shed \| findings \|/);
    expect(md).toMatch(/overload-503 ×\d+ \(\d+\)/);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toContain(
      '<label>server.shedding <select data-filter="server-shedding"><option value="">any</option><option value="off">off</option><option value="on">on</option></select></label>',
    );
    expect(html).toContain('data-server-shedding="on"');
    expect(html).toContain('nothing-<wbr>shed</th>');
  });

  it('is in the schema: compare.json validates, merge keeps the knob, replay needs the module to read a finding', async () => {
    const parsed = comparisonSchema.parse(report);
    expect((parsed.cells[1]!.combination.server as Record<string, unknown>).shedding).toBe('on');
    mkdirSync(merged);
    const m = await run('merge', join(out, 'compare.json'), '--out', merged);
    expect(m.code).toBe(0);
    const again = JSON.parse(readFileSync(join(merged, 'compare.json'), 'utf8'));
    expect(again.cells.map((c: Cell) => c.combination.server.shedding)).toEqual(['off', 'on']);
    expect(readFileSync(join(merged, 'compare.md'), 'utf8')).toContain('| reject · negotiated · static · 2025-11-25 · none · on |');

    const file = readdirSync(join(out, 'counterexamples')).find((f) => f.endsWith('--nothing-shed.json'))!;
    const saved = JSON.parse(readFileSync(join(out, 'counterexamples', file), 'utf8'));
    expect(saved.combination.server.shedding).toBe('on');
    const replayed = await run('replay', join(out, 'counterexamples', file), '--policies', module);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toMatch(/reproduced/);
    const without = await run('replay', join(out, 'counterexamples', file));
    expect(without.code).toBe(2);
    expect(without.stderr).toContain(`unknown server.shedding value 'on' (it was saved with --policies ${module})`);
  });
});
