// `npm run bench`: the engine, random search, exhaustive search, the wire tier, memory, the CLI's
// compare and where its time goes by stage (bench/stages.ts), where the engine's, check's and explore's
// time and bytes go by part of the code (bench/parts.ts), and the CLI against the earlier
// commits issue 40 names (bench/against.ts: installs them once, cached), measured on this machine; a readable
// table, or `-- --json` for one object. Each figure is a median of repeated rounds (or of 100
// seeds), and each ratio is measured within the same run. This is a benchmark, not a test: it
// asserts nothing, and says which of the project's targets it met.
import { cpus } from 'node:os';
import { measureAgainst } from './against.ts';
import { partApart } from './apart.ts';
import { measureCompare } from './compare.ts';
import { measureEngine } from './engine.ts';
import { measureExhaustive } from './exhaustive.ts';
import { clearNote, load, now, round } from './measure.ts';
import { measureMemory } from './memory.ts';
import { measureParts } from './parts.ts';
import { RECORDS, measureSeed } from './seeds.ts';
import { renderBench } from './render.ts';
import { measureStages } from './stages.ts';
import { judgeTargets } from './targets.ts';
import { measureWire } from './wire.ts';

const SECTIONS = ['engine', 'seeds', 'exhaustive', 'wire', 'memory', 'compare', 'stages', 'parts', 'against'] as const;
type Section = (typeof SECTIONS)[number];

const USAGE = `usage: npm run bench -- [--json] [--quick] [--no-full-matrix] [--only ${SECTIONS.join(',')}]

Measure the simulator on this machine and print every figure with the targets it meets.
  --json    one JSON object instead of the table
  --quick   fewer rounds and sessions (a smoke run; figures are noisier, memory over 100k sessions; no against)
  --no-full-matrix  every section in full, but compare, stages and against without --matrix full (minutes on a loaded machine)
  --only    run only these sections (comma-separated)

against runs the CLI beside c1f4702 and 52c6b3c; the first time it checks them out, installs them (npm ci, from
the npm registry) and builds them in node_modules/.cache/mcp-faultsim-bench/ (minutes; later runs reuse them)
`;

function parse(argv: string[]): { json: boolean; quick: boolean; fullMatrix: boolean; only: Set<Section> } {
  let json = false;
  let quick = false;
  let fullMatrix = true;
  let only = new Set<Section>(SECTIONS);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--quick') quick = true;
    else if (a === '--no-full-matrix') fullMatrix = false;
    else if (a === '--only' || a.startsWith('--only=')) {
      const list = (a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i]) ?? '';
      const names = list.split(',').filter(Boolean);
      const bad = names.find((n) => !SECTIONS.includes(n as Section));
      if (bad !== undefined || names.length === 0)
        throw new Error(`--only takes sections from ${SECTIONS.join(', ')}, not '${bad ?? list}'`);
      only = new Set(names as Section[]);
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option '${a}' (valid: --json, --quick, --no-full-matrix, --only)`);
  }
  return { json, quick, fullMatrix, only };
}

async function main(): Promise<void> {
  const { json, quick, fullMatrix, only } = parse(process.argv.slice(2));
  const started = now();
  const timing: Record<string, number> = {};
  const section = async <T>(name: Section, f: () => T | Promise<T>): Promise<T | undefined> => {
    if (!only.has(name)) return undefined;
    const t = now();
    const r = await f();
    timing[name] = round((now() - t) / 1000, 1);
    clearNote();
    return r;
  };
  const loadBefore = load();
  const engine = await section('engine', () => measureEngine(quick));
  const seeds = await section('seeds', () => ({ '000': measureSeed(RECORDS['000'], 100), '003': measureSeed(RECORDS['003'], 100) }));
  // Each part in a process of its own: a peak RSS is then that exploration's (bench/apart.ts).
  const exhaustive = await section('exhaustive', () => measureExhaustive(quick, partApart));
  const wire = await section('wire', () => measureWire(quick));
  const memory = await section('memory', () => measureMemory(quick));
  const compare = await section('compare', () => measureCompare(quick || !fullMatrix));
  const stages = await section('stages', () => measureStages(quick || !fullMatrix));
  const parts = await section('parts', () => measureParts(quick));
  const against = await section('against', () => measureAgainst(quick, fullMatrix));
  timing.total = round((now() - started) / 1000, 1);

  const targets = judgeTargets({ engine, seeds, exhaustive, wire, memory, compare, stages, parts, against });
  const report = {
    machine: {
      node: process.version,
      cpus: cpus().length,
      loadBefore,
      loadAfter: load(),
      note: 'a shared machine: other work runs on the same cores, so figures drift between runs; ratios are measured within one run',
      quick,
      ...(fullMatrix ? {} : { fullMatrix: false as const }),
    },
    ...(engine ? { engine } : {}),
    ...(seeds ? { seeds } : {}),
    ...(exhaustive ? { exhaustive } : {}),
    ...(wire ? { wire } : {}),
    ...(memory ? { memory } : {}),
    ...(compare ? { compare } : {}),
    ...(stages ? { stages } : {}),
    ...(parts ? { parts } : {}),
    ...(against ? { against } : {}),
    targets,
    timing,
  };
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : renderBench(report));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
