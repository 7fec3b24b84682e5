// The stages of a comparison as the stage profile (bench/stages.ts) tells them apart: each by the
// functions that start it, found on a call stack (a CPU profile's sample, or the stack at a world's
// start). The first stage of this list with a function on the stack is the stage: a pair search
// replays and searches, a finding's replays run inside its annotation, a shrink runs inside the
// random check, so the more specific stage comes first.

export interface StageMarker {
  stage: string;
  /** Function names, each in the file given beside it (a path without its extension: the sources and dist/ alike). */
  at: readonly [fn: string, file: string][];
}

export const STAGES: readonly StageMarker[] = [
  // The recommendation replays findings under its candidates: that is its time, not the finder's.
  { stage: 'recommendation (its replays and ranking)', at: [['recommend', 'sim/compare/recommendation']] },
  {
    stage: 'reports (with the findings’ histories run again)',
    at: [
      ['writeReports', 'sim/cli/report-files'],
      ['renderJson', 'reports/compare-json'],
      ['renderSummary', 'reports/compare-text'],
    ],
  },
  { stage: 'finder: pair searches', at: [['pairSearch', 'sim/compare/mitigation-pairs']] },
  { stage: 'finder: replays and fault-free runs of the changes', at: [['replaysOf', 'sim/compare/mitigations']] },
  {
    stage: 'finder: searches',
    at: [
      ['searchSteps', 'sim/compare/mitigation-runs'],
      ['runSearch', 'sim/compare/mitigation-runs'],
    ],
  },
  {
    stage: 'finder: the cells’ runs offered to its searches',
    at: [['offer', 'sim/compare/annotator']],
  },
  { stage: 'certification (exhaustive, one fault fewer)', at: [['certify', 'sim/search/certify']] },
  {
    stage: 'shrinking',
    at: [
      ['shrink', 'sim/search/random/check-runner'],
      ['counterexampleOf', 'sim/search/random/check-runner'],
    ],
  },
  {
    stage: 'cells: fault-free runs',
    at: [
      ['brokenWithoutFaults', 'sim/compare/fault-free'],
      ['worldFaultFree', 'sim/compare/fault-free'],
    ],
  },
  {
    stage: 'cells: random runs',
    at: [
      ['randomCheck', 'sim/search/random/check-runner'],
      ['checkCombination', 'sim/search/random/check'],
      ['check', 'sim/search/random/check'],
    ],
  },
  {
    stage: 'findings: causes, finder bookkeeping',
    at: [
      ['findingsOf', 'sim/compare/findings'],
      ['annotate', 'sim/compare/annotator'],
      ['findMitigations', 'sim/compare/mitigation-finder'],
      ['find', 'sim/compare/mitigation-finder'],
    ],
  },
];

export const OTHER = 'start-up, threads, module loading, other';
export const GC = 'garbage collection (any stage)';

/** One frame of a stack: its function's name and the URL or path of its file. */
export interface Frame {
  functionName: string;
  url: string;
}

const fileOf = (url: string) => url.replace(/^file:\/\//, '').replace(/\.(ts|js|mjs)$/, '');
/** Whether `file` is `suffix`, here or in the older layout with the stages at the top level (no `sim/`:
 *  52c6b3c, which the issue compares with, profiles with this table too). */
const isFile = (file: string, suffix: string) => file.endsWith(`/${suffix}`) || file.endsWith(`/${suffix.replace(/^sim\//, '')}`);

/** The stage of a stack (frames in any order): the first of STAGES with a function on it. */
export function stageOf(frames: readonly Frame[]): string {
  let best = STAGES.length;
  for (const f of frames) {
    if (!f.functionName) continue;
    const file = fileOf(f.url);
    for (let i = 0; i < best; i++)
      if (STAGES[i]!.at.some(([fn, suffix]) => fn === f.functionName && isFile(file, suffix))) {
        best = i;
        break;
      }
  }
  return best < STAGES.length ? STAGES[best]!.stage : OTHER;
}
