// The wire tier's throughput (issue 5 builds wire/): real MCP SDK client and server through msw,
// with the fault layer on but no faults, against bare msw + SDK. Loaded only if it is there.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, note, round } from './measure.ts';

export interface WireFigures {
  callsPerSecond: number | null;
  bareCallsPerSecond: number | null;
  /** Fault layer over bare, medians of the same rounds. */
  ratio: number | null;
  rounds: number;
  note?: string;
}

export async function measureWire(quick: boolean): Promise<WireFigures> {
  const url = new URL('../wire/throughput.ts', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    return { callsPerSecond: null, bareCallsPerSecond: null, ratio: null, rounds: 0, note: 'wire/ not present' };
  const { measureWireThroughput } = (await import(url.href)) as {
    measureWireThroughput(opts: { calls: number }): Promise<{ callsPerSecond: number; bareCallsPerSecond: number }>;
  };
  const rounds = quick ? 1 : 3;
  const faulted: number[] = [];
  const bare: number[] = [];
  for (let r = 0; r < rounds; r++) {
    note(`wire: round ${r + 1}/${rounds}`);
    const m = await measureWireThroughput({ calls: quick ? 300 : 2000 });
    faulted.push(m.callsPerSecond);
    bare.push(m.bareCallsPerSecond);
  }
  const f = median(faulted);
  const b = median(bare);
  return { callsPerSecond: round(f), bareCallsPerSecond: round(b), ratio: round(f / b, 2), rounds };
}
