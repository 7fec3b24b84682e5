// The wire tier's throughput (issue 5 builds wire/): real MCP SDK client and server through msw,
// with the fault layer on but no faults, against bare msw + SDK. Loaded only if it is there.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, note, round } from './measure.ts';

export interface WireFigures {
  callsPerSecond: number | null;
  bareCallsPerSecond: number | null;
  /** Fault layer over bare, medians of the same rounds (wall clock). */
  ratio: number | null;
  /** Process CPU milliseconds per call, each arm (medians); steadier than the wall clock on a loaded machine. */
  cpuMsPerCall?: number;
  bareCpuMsPerCall?: number;
  /** Bare CPU per call over the fault layer's: the same ratio, by CPU time. */
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
  const url = new URL('../wire/throughput.ts', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    return { callsPerSecond: null, bareCallsPerSecond: null, ratio: null, rounds: 0, note: 'wire/ not present' };
  const { measureWireThroughput } = (await import(url.href)) as {
    measureWireThroughput(opts: { calls: number }): Promise<Round>;
  };
  const rounds = quick ? 1 : 3;
  const runs: Round[] = [];
  for (let r = 0; r < rounds; r++) {
    note(`wire: round ${r + 1}/${rounds}`);
    runs.push(await measureWireThroughput({ calls: quick ? 300 : 2000 }));
  }
  const m = (k: keyof Round) => median(runs.map((x) => x[k]));
  const f = m('callsPerSecond');
  const b = m('bareCallsPerSecond');
  const cpu = m('cpuMsPerCall');
  const bareCpu = m('bareCpuMsPerCall');
  return {
    callsPerSecond: round(f),
    bareCallsPerSecond: round(b),
    ratio: round(f / b, 2),
    cpuMsPerCall: round(cpu, 3),
    bareCpuMsPerCall: round(bareCpu, 3),
    cpuRatio: round(bareCpu / cpu, 2),
    rounds,
  };
}
