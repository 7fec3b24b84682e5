// The project's own rules, run as a user runs them: the determinism lint rule (biome + the GritQL
// plugin in .ci/lint-rules/) and the dependency rules (.dependency-cruiser.cjs). Each must fire on a
// planted file that breaks it: a rule that cannot fail checks nothing. (The tree's own lint and
// `npm run check:deps` are run by the scripts; here only the determinism rule is required of it.)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'node_modules/.bin');
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A scratch project holding the given files and copies of the named config files. */
function project(files: Record<string, string>, configs: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-faultsim-rules-'));
  temps.push(dir);
  for (const c of configs) cpSync(join(ROOT, c), join(dir, c), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

interface Diagnostic {
  category: string;
  location: { path: string; start: { line: number } };
}

function biomeLint(cwd: string, extra: readonly string[] = []): Diagnostic[] {
  const r = spawnSync(join(BIN, 'biome'), ['lint', '--reporter=json', '--max-diagnostics=none', ...extra, '.'], { cwd, encoding: 'utf8' });
  return (JSON.parse(r.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
}

const CLOCK = [
  'export const a = Date.now();',
  'export const b = Math.random();',
  'export const c = new Date();',
  'export const d = performance.now();',
  'export const e = process.hrtime.bigint();',
  // Deterministic uses of the same globals are fine.
  'export const f = new Date(0).toISOString();',
  'export const g = Math.max(1, 2) + Date.parse("2026-01-01");',
].join('\n');

describe('determinism lint rule (.ci/lint-rules/no-wall-clock.grit)', () => {
  it('fires on each clock or random read in a simulation folder, and not where the clock is allowed', () => {
    const dir = project(
      {
        'sim/world/planted.ts': CLOCK,
        'sim/search/random/planted.ts': CLOCK,
        'sim/cli/planted.ts': CLOCK,
        'bench/planted.ts': CLOCK,
        'sim/wire/protocol/virtual-time.ts': CLOCK,
      },
      ['biome.jsonc', '.ci/lint-rules'],
    );
    const hits = biomeLint(dir, ['--vcs-enabled=false']).filter((d) => d.category === 'plugin');
    const lines = (path: string) => hits.filter((d) => d.location.path === path).map((d) => d.location.start.line);
    expect(lines('sim/world/planted.ts')).toEqual([1, 2, 3, 4, 5]);
    expect(lines('sim/search/random/planted.ts')).toEqual([1, 2, 3, 4, 5]);
    expect(hits.filter((d) => !d.location.path.endsWith('planted.ts') || /^(sim\/cli|bench)\//.test(d.location.path))).toEqual([]);
  });

  it('nothing in the tree reads the clock or randomness outside the allowed folders', () => {
    const hits = biomeLint(ROOT).filter((d) => d.category === 'plugin');
    expect(hits.map((d) => `${d.location.path}:${d.location.start.line}`)).toEqual([]);
  });
});

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The violations as data, and the exit status of the run as `check:deps` makes it (its `err` output). */
function depcruise(cwd: string, paths: readonly string[]): { status: number | null; violations: Violation[] } {
  const cruise = (output: string) =>
    spawnSync(join(BIN, 'depcruise'), ['--config', '.dependency-cruiser.cjs', '--output-type', output, ...paths], {
      cwd,
      encoding: 'utf8',
    });
  const json = cruise('json');
  return {
    status: cruise('err').status,
    violations: (JSON.parse(json.stdout) as { summary: { violations: Violation[] } }).summary.violations,
  };
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('fire on a planted cycle, a model importing the project, an oracle using model logic, a report running a search and a clock module', () => {
    const dir = project(
      {
        'models/a.ts': "import { b } from './b.ts';\nimport { one } from '../sim/core/one.ts';\nexport const a = () => b() + one;\n",
        'sim/core/one.ts': 'export const one = 1;\n',
        'models/b.ts': "import { a } from './a.ts';\nexport const b = () => 1;\nexport const unused = a;\nexport type Caps = string[];\n",
        'sim/core/plan.ts': "import type { Caps } from '../../models/b.ts';\nexport const plan = 1;\nexport type P = Caps;\n",
        'properties/oracle.ts':
          "import { b } from '../models/b.ts';\nimport type { Caps } from '../models/b.ts';\nexport const o = (c: Caps) => b() + c.length;\n",
        'sim/search/run.ts': 'export const run = () => 2;\n',
        'reports/render.ts':
          "import { run } from '../sim/search/run.ts';\nimport type { P } from '../sim/core/plan.ts';\nexport const r = (p: P) => run() + p;\n",
        'sim/world/clock.ts': "import { performance } from 'node:perf_hooks';\nexport const now = () => performance.now();\n",
        'sim/cli/main.ts':
          "import { r } from '../../reports/render.ts';\nimport { performance } from 'node:perf_hooks';\nexport const m = () => r(1) + performance.now();\n",
      },
      ['.dependency-cruiser.cjs', 'tsconfig.json'],
    );
    const { status, violations } = depcruise(dir, ['models', 'sim', 'properties', 'reports']);
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'layer-properties-types-only: properties/oracle.ts → models/b.ts',
      'layer-reports-types-only: reports/render.ts → sim/search/run.ts',
      'no-circular: models/a.ts → models/b.ts',
      'no-clock-modules: sim/world/clock.ts → perf_hooks',
      'stage-order-models: models/a.ts → sim/core/one.ts',
    ]);
    expect(status).not.toBe(0);
  });
  it("fire on an upward import that is only a type: between stages, between the wire tier's folders, between the two audits", () => {
    const type = (name: string) => `export type ${name} = { n: number };\n`;
    const dir = project(
      {
        // plugins/ below compare/: the import that ran back up before ExtraCell moved to core/.
        'sim/compare/matrix.ts': type('ExtraCell'),
        'sim/plugins/cells.ts': "import type { ExtraCell } from '../compare/matrix.ts';\nexport const cells = (c: ExtraCell) => c.n;\n",
        // A value import the same way fails too, and a downward type import passes.
        'sim/core/cells.ts': type('Cell'),
        'sim/search/run.ts': "import type { Cell } from '../core/cells.ts';\nexport const run = (c: Cell) => c.n;\n",
        'sim/world/step.ts': "import { run } from '../search/run.ts';\nexport const step = run;\n",
        'sim/wire/protocol/json-rpc.ts': "import type { Peer } from '../peers/peer.ts';\nexport const id = (p: Peer) => p.n;\n",
        'sim/wire/peers/peer.ts': "import type { Net } from '../net/net.ts';\nexport type Peer = Net;\n",
        'sim/wire/net/net.ts': "import type { World } from '../world.ts';\nexport type Net = World;\n",
        'sim/wire/world.ts': type('World'),
        'sim/audit/server/runner.ts': "import type { Row } from '../client/row.ts';\nexport const r = (x: Row) => x.n;\n",
        'sim/audit/client/row.ts': "import type { Shared } from '../shared.ts';\nexport type Row = Shared;\n",
        'sim/audit/shared.ts':
          "import type { Row } from './client/row.ts';\nexport type Shared = { n: number };\nexport type Again = Row;\n",
      },
      ['.dependency-cruiser.cjs', 'tsconfig.json'],
    );
    const { status, violations } = depcruise(dir, ['sim']);
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(found).toEqual([
      'folder-apart-sim/audit/server: sim/audit/server/runner.ts → sim/audit/client/row.ts',
      'folder-apart-sim/audit: sim/audit/shared.ts → sim/audit/client/row.ts',
      'folder-order-sim/wire/net: sim/wire/net/net.ts → sim/wire/world.ts',
      'folder-order-sim/wire/protocol: sim/wire/protocol/json-rpc.ts → sim/wire/peers/peer.ts',
      'stage-order-sim/plugins: sim/plugins/cells.ts → sim/compare/matrix.ts',
      'stage-order-sim/world: sim/world/step.ts → sim/search/run.ts',
    ]);
    expect(status).not.toBe(0);
  });
});

/** `npm run check:cycles` as package.json states it, run in `cwd` with the project's binaries. */
function checkCycles(cwd: string): { status: number | null; output: string } {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
    'check:cycles'
  ]!;
  const r = spawnSync('sh', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, PATH: `${BIN}:${process.env.PATH}` } });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe('no import cycles (madge, `npm run check:cycles`)', () => {
  it('fires on a cycle made only of `import type` edges, which the dependency rules let pass', () => {
    const files: Record<string, string> = {
      'models/a.ts': "import type { B } from './b.ts';\nexport type A = { b?: B };\n",
      'models/b.ts': "import type { A } from './a.ts';\nexport type B = { a?: A };\n",
      'index.ts': 'export {};\n',
      'vitest.ts': 'export {};\n',
    };
    for (const folder of ['properties', 'reports', 'sim', 'bench', 'bin', 'examples']) files[`${folder}/empty.ts`] = 'export {};\n';
    const dir = project(files, ['tsconfig.json', '.dependency-cruiser.cjs']);
    const cycles = checkCycles(dir);
    expect(cycles.output).toContain('models/a.ts > models/b.ts');
    expect(cycles.status).not.toBe(0);
    expect(depcruise(dir, ['models']).violations).toEqual([]);
  });
});
