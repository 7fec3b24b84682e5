// Measuring on a shared, noisy machine: repeated rounds, medians and spreads, and a record of the
// load while we measured. The clock lives here and in the sections, never in the simulator.
import { loadavg } from 'node:os';

export interface Spread {
  median: number;
  p90: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { median: median(sorted), p90: at(0.9), max: sorted[sorted.length - 1]! };
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const now = () => performance.now();

export function load(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

export const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A count as the tables print it, with thousands separators ('-' for a figure that is not a number). */
export const thousands = (x: number) => (Number.isFinite(x) ? x.toLocaleString('en-US') : '-');

/** Progress of a long section on stderr, only for a terminal. */
export function note(message: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${message}`);
}
export function clearNote(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}
