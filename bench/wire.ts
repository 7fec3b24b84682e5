// The wire tier's throughput (issue 5 builds wire/): real MCP SDK client and server through msw,
// with the fault layer on but no faults, against bare msw + SDK. Loaded only if it is there.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, note, round } from './measure.ts';

export interface WireFigures {
  callsPerSecond: number | null;
  bareCallsPerSecond: number | null;
  /** Fault layer over bare (wall clock): the median of each round's ratio, both arms timed in the same blocks of that round. */
  ratio: number | null;
  /** Process CPU milliseconds per call, each arm (medians); steadier than the wall clock on a loaded machine. */
  cpuMsPerCall?: number;
  bareCpuMsPerCall?: number;
  /** Bare CPU per call over the fault layer's: the same ratio, by CPU time (median of the rounds' ratios). */
  cpuRatio?: number;
  rounds: number;
  note?: string;
}

interface Round {
  callsPerSecond: number;
  bareCallsPerSecond: number;
  cpuMsPerCall: number;
  bareCpuMsPerCall: number;
}

export async function measureWire(quick: boolean): Promise<WireFigures> {
  const url = new URL('../sim/wire/throughput.ts', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    return { callsPerSecond: null, bareCallsPerSecond: null, ratio: null, rounds: 0, note: 'wire/ not present' };
  const { measureWireThroughput } = (await import(url.href)) as {
    measureWireThroughput(opts: { calls: number }): Promise<Round>;
  };
  const rounds = quick ? 1 : 3;
  const runs: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    note(`wire: round ${r + 1}/${rounds}`);
    runs.push(await measureWireThroughput({ calls: quick ? 300 : 6000 }));
  }
  const m = (k: keyof Round) => median(runs.map((x) => x[k]));
  // A ratio is taken within each round (its arms interleaved on the same machine), then the median of those.
  const ratio = median(runs.map((x) => x.callsPerSecond / x.bareCallsPerSecond));
  const cpuRatio = median(runs.map((x) => x.bareCpuMsPerCall / x.cpuMsPerCall));
  return {
    callsPerSecond: round(m('callsPerSecond')),
    bareCallsPerSecond: round(m('bareCallsPerSecond')),
    ratio: round(ratio, 2),
    cpuMsPerCall: round(m('cpuMsPerCall'), 3),
    bareCpuMsPerCall: round(m('bareCpuMsPerCall'), 3),
    cpuRatio: round(cpuRatio, 2),
    rounds,
  };
}
