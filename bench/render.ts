// The benchmark's figures as a person reads them: one table per section, then the targets.
import { table } from '../reports/table.ts';
import type { EngineFigures } from './engine.ts';
import type { DepthRun, ExhaustiveFigures } from './exhaustive.ts';
import { thousands, type Spread } from './measure.ts';
import type { MemoryFigures } from './memory.ts';
import type { SeedFigures } from './seeds.ts';
import type { WireFigures } from './wire.ts';
import type { CompareFigures } from './compare.ts';
import type { StageFigures, StageProfile } from './stages.ts';
import type { Target } from './targets.ts';
import type { AgainstFigures } from './against.ts';
import { renderAgainst } from './against-table.ts';
import { ALL_PARTS, type PartShare } from './code-parts.ts';
import type { PartsFigures } from './parts.ts';

interface Report {
  machine: { node: string; cpus: number; loadBefore: number[]; loadAfter: number[]; note: string; quick: boolean; fullMatrix?: false };
  engine?: EngineFigures;
  seeds?: { '000': SeedFigures; '003': SeedFigures };
  exhaustive?: ExhaustiveFigures;
  wire?: WireFigures;
  compare?: CompareFigures;
  stages?: StageFigures;
  against?: AgainstFigures;
  parts?: PartsFigures;
  memory?: MemoryFigures;
  targets: Record<string, Target>;
  timing: Record<string, number>;
}

const n = thousands;
const s = (x: Spread, unit = '') => `${n(x.median)}${unit} (p90 ${n(x.p90)}, max ${n(x.max)})`;

/** A run's figures: states, plans, time (wall and CPU), peak resident memory. */
function depthRun(d: DepthRun): string {
  return `: ${n(d.states)} states, ${n(d.plans)} plans, ${d.seconds} s (CPU ${d.cpuSeconds} s), peak RSS ${d.peakRssMB} MB`;
}

/** One matrix's stage profile (bench/stages.ts): CPU by stage, with the runs each started. */
function stageTable(p: StageProfile): string[] {
  const cmd = `mcp-faultsim compare${p.matrix === 'full' ? ' --matrix full' : ''} --quiet`;
  const rows = p.rows.map((x) => [
    x.stage,
    `${x.cpuSeconds.toFixed(2)} s`,
    `${x.share}%`,
    x.runs === null ? '' : n(x.runs),
    x.forks ? n(x.forks) : '',
    x.runsPerFinding === null ? '' : n(x.runsPerFinding),
  ]);
  return [
    `stages — ${cmd}: ${p.cpuSeconds} s CPU over ${p.threads} thread${p.threads === 1 ? '' : 's'}, shared by the stages of its profile; ` +
      `runs counted on one thread: ${n(p.runs)} for ${n(p.findings)} findings (${n(p.silentFindings)} silent)`,
    table(['stage', 'CPU', 'share', 'runs', 'forks', 'runs/finding'], rows, ['l', 'r', 'r', 'r', 'r', 'r']),
  ];
}

/** The parts section (bench/parts.ts), each profile's shares by part of the code side by side, with
 *  the engine section's split of the history-off session's bytes where it ran. */
function partsTable(p: PartsFigures, bytes: readonly PartShare[] | undefined): string[] {
  const profiles = [p.engineCpu.shares, bytes ?? [], p.check.shares, p.explore.shares];
  const rows = ALL_PARTS.filter((part) => profiles.some((x) => x.some((s) => s.part === part))).map((part) => {
    const [cpu, b, check, explore] = profiles.map((x) => x.find((s) => s.part === part));
    const pct = (s: PartShare | undefined) => (s ? `${s.share.toFixed(1)}%` : '');
    return [part, pct(cpu), b ? `${n(b.amount ?? 0)} (${pct(b)})` : '', pct(check), pct(explore)];
  });
  return [
    'parts — where the time and the bytes go, by part of the code (bench/code-parts.ts): self time of each CPU profile; bytes per session',
    `  engine CPU: ${p.engineCpu.command}`,
    ...(bytes ? ["  engine bytes: the engine section's history-off session, V8's sampling heap profiler"] : []),
    `  check: ${p.check.command}`,
    `  explore: ${p.explore.command}`,
    table(['part', 'engine CPU', 'engine bytes/session', 'check CPU', 'explore CPU'], rows, ['l', 'r', 'r', 'r', 'r']),
  ];
}

export function renderBench(r: Report): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(
    `mcp-faultsim bench — node ${m.node}, ${m.cpus} cores, load ${m.loadBefore.join(' ')} → ${m.loadAfter.join(' ')}${m.quick ? ' (--quick)' : ''}${m.fullMatrix === false ? ' (--no-full-matrix: compare --matrix full not run)' : ''}`,
  );
  out.push(`(${m.note})`);
  const section = (title: string, rows: string[][]) => out.push('', title, table(['figure', 'value'], rows, ['l', 'r']));
  if (r.engine) {
    const e = r.engine;
    const us = e.microsecondsPerEvent;
    const code = e.code === 'dist' ? 'compiled (dist/), as the CLI runs it' : 'the sources through tsx (dist/ is stale: npm run build)';
    section(`engine — sessions of ${e.workload} under ${e.plan}; median of ${e.rounds} rounds, CPU time of this process, ${code}`, [
      ['engine (compiled statecharts, history kept), sessions/s', `${n(e.sessionsPerSecond)}  (${us.engine} µs/event)`],
      ['engine, then judged from the history (as check), sessions/s', `${n(e.judgedSessionsPerSecond)}  (${us.judged} µs/event)`],
      ['world with history off (property folds only), sessions/s', `${n(e.historyOffSessionsPerSecond)}  (${us.historyOff} µs/event)`],
      ['minimal mutable reducer of the cell (the floor), sessions/s', `${n(e.minimalSessionsPerSecond)}  (${us.minimal} µs/event)`],
      ['XState transition(), sessions/s', `${n(e.xstateSessionsPerSecond)}  (${us.xstate} µs/event)`],
      ['events per session: world / minimal reducer', `${e.eventsPerSession} / ${e.minimalEventsPerSession}`],
      ['judged / engine', `×${e.judgedToEngine}`],
      ['history off / engine', `×${e.historyOffToEngine}`],
      ['history off / judged from history', `×${e.historyOffToJudged}`],
      ['minimal reducer / engine', `×${e.minimalToEngine}`],
      ['minimal reducer / history off', `×${e.minimalToHistoryOff}`],
      ['XState / engine', `×${e.xstateToEngine}`],
      ...(e.bytesPerSession
        ? [
            [
              'bytes allocated per session, once warm: engine / history off / minimal reducer',
              `${n(e.bytesPerSession.engine)} / ${n(e.bytesPerSession.historyOff)} / ${n(e.bytesPerSession.minimal)}`,
            ],
          ]
        : []),
    ]);
  }
  if (r.seeds) {
    for (const [seed, f] of Object.entries(r.seeds)) {
      section(`record ${seed} — ${f.seeds} seeds, ${f.runsPerSeed} runs each`, [
        ['runs to the first failure', s(f.runsToFirst)],
        ['ms to the first failure', s(f.msToFirst, ' ms')],
        ['shrink steps', s(f.shrinks)],
        [`found within ${f.runsPerSeed} runs`, `${n(f.foundWithin * 100)}%`],
        [
          'shrunk plans certified minimal',
          `${f.minimal}/${f.seeds} (${f.faultsInShrunkPlan.join(' or ')} fault${f.faultsInShrunkPlan.join() === '1' ? '' : 's'})`,
        ],
      ]);
    }
  }
  if (r.exhaustive) {
    const x = r.exhaustive;
    section(`exhaustive — the ${x.cells} seed cells, sequential workloads of up to 3 calls, ${x.workers} workers`, [
      [`depth reached within ${x.budgetSeconds} s (iterative deepening)`, `${x.depthIn60s}`],
      ['states per second at that depth, all workers', n(x.statesPerSecond)],
      ...x.byDepth.map((d) => [
        `  depth ${d.depth}${d.complete ? '' : ' (cut off)'}`,
        `${n(d.states)} states (largest job ${n(d.largestJobStates)}), ${n(d.plans)} plans, ${d.seconds} s`,
      ]),
      [
        'depth 4 on one worker / all workers',
        `${x.depth4.oneWorkerSeconds} s / ${x.depth4.allWorkersSeconds} s (×${x.depth4.speedup}, median of ${x.depth4.rounds})`,
      ],
      ['  CPU seconds, all threads: one worker / all workers', `${x.depth4.oneWorkerCpuSeconds} s / ${x.depth4.allWorkersCpuSeconds} s`],
      ['  the most the split allows on this many workers (job states)', `×${x.depth4.balanceBound}`],
      ['fingerprint collision bound, largest job (n²/2^65)', `${x.fingerprintCollisionBound}`],
      [
        '"does not apply" cells proved to depth 4',
        `${x.safeCells.doesNotApplyProved}/${x.safeCells.doesNotApply} in ${x.safeCells.seconds} s`,
      ],
      ['cells whose record property holds to depth 4', `${x.safeCells.holding}/${x.cells}`],
      ...x.safeCells.violated.map((v) => [`  violated: ${v.cell}`, `${v.faults} fault(s)`]),
      [
        `"does not apply" cells proved to depth 6 (${x.doesNotApplyDepth6.budgetSeconds} s budget)`,
        `${x.doesNotApplyDepth6.proved}/${x.doesNotApplyDepth6.cells}${depthRun(x.doesNotApplyDepth6)}`,
      ],
    ]);
    const v = x.vocabulary;
    section(
      `exhaustive — the whole vocabulary (${v.faults} faults, ${v.workloads} workloads of up to 2 calls: explore --depth K), ${x.workers} workers`,
      [
        [`depth reached within ${v.budgetSeconds} s (iterative deepening)`, `${v.depthReached}`],
        ...v.byDepth.map((d) => [
          `  depth ${d.depth}${d.complete ? '' : ` (cut off after depth ${d.depthFinished})`}`,
          depthRun(d).slice(2),
        ]),
      ],
    );
  }
  if (r.compare) {
    const cellsWhere = (c: CompareFigures['default']) =>
      c.cellThreads === 0
        ? ' (all on the main thread, no cell thread)'
        : c.cellsOnMainThread !== undefined
          ? ` (${n(c.cellsOnMainThread)} on the main thread${c.cellThreads !== undefined ? `, the rest on ${n(c.cellThreads)} cell thread${c.cellThreads === 1 ? '' : 's'}` : ''})`
          : '';
    const finder = (c: CompareFigures['default']) =>
      c.finderSearches
        ? `; cells done at ${c.cellsDoneSeconds} s${cellsWhere(c)}; finder: ${n(c.finderSearches.distinct)} searches (${n(c.finderSearches.fromCells)} from cells' runs)${
            c.finderSearches.runsHere
              ? `, main thread judged ${n(c.finderSearches.runsHere.judged)} of ${n(c.finderSearches.runsHere.asked)} search runs`
              : ''
          }`
        : '';
    const row = (c: CompareFigures['default']) => [
      `mcp-faultsim ${c.argv.join(' ')}`,
      c.exitCode === 0 ? `${c.wallSeconds} s wall, ${c.cpuSeconds} s CPU, ${n(c.maxRssMB)} MB peak${finder(c)}` : `exit ${c.exitCode}`,
    ];
    const ran = r.compare.ran === 'source' ? ', the source through tsx' : r.compare.ran === 'dist' ? ', compiled (dist/)' : '';
    section(`compare — the CLI in its own process${ran} (wall time, CPU time of every thread, peak RSS)`, [
      row(r.compare.default),
      ...(r.compare.full ? [row(r.compare.full)] : []),
    ]);
  }
  for (const p of r.stages ? [r.stages.default, r.stages.full] : []) if (p) out.push('', ...stageTable(p));
  if (r.parts) out.push('', ...partsTable(r.parts, r.engine?.historyOffBytesByPart));
  if (r.against) out.push(...renderAgainst(r.against));
  if (r.wire) {
    const w = r.wire;
    if (w.note) out.push('', `wire: ${w.note}`);
    else {
      section(`wire tier — calls per second, median of ${w.rounds} rounds`, [
        ['fault layer on, no faults, calls/s', n(w.callsPerSecond!)],
        ['bare msw + SDK, calls/s', n(w.bareCallsPerSecond!)],
        ['fault layer / bare', `${w.ratio}`],
        ...(w.cpuRatio !== undefined
          ? [
              [
                'CPU ms per call, fault layer / bare (ratio bare ÷ fault layer)',
                `${w.cpuMsPerCall} / ${w.bareCpuMsPerCall} (${w.cpuRatio})`,
              ],
            ]
          : []),
      ]);
    }
  }
  if (r.memory) {
    const mm = r.memory;
    section(`memory — judged sessions${mm.gc ? '' : ' (no --expose-gc: figures include garbage)'}`, [
      ['heap after 10k sessions', `${mm.heapAfter10kMB} MB`],
      [`heap after ${n(mm.sessions)} sessions`, `${mm.heapAfterAllMB} MB`],
      ['growth', `${mm.heapGrowthMB} MB`],
    ]);
  }
  out.push('', 'targets');
  for (const t of Object.values(r.targets)) {
    const mark = t.met === null ? 'not measured' : t.met ? 'met         ' : 'MISSED      ';
    out.push(`  ${mark}  ${t.target}${t.figure === null ? '' : `: ${t.figure}`}`);
  }
  out.push(
    '',
    `took ${Object.entries(r.timing)
      .map(([k, v]) => `${k} ${v} s`)
      .join(', ')}`,
  );
  return out.join('\n') + '\n';
}
