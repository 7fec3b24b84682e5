// The exhaustive section's parts, each measured in a process of its own (bench/section-process.ts), so
// that the peak RSS a part samples is its own work's: sampled in the bench's process, an
// exploration's peak counted the heap that the sections and parts before it had left (the whole
// vocabulary's depth 1, 403 states, read 361 MB). Each process runs the code the bench runs
// (bench/compiled-code.mjs) with the same flags.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ExhaustivePart, PartFigures } from './exhaustive.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export function partApart<P extends ExhaustivePart>(part: P, quick: boolean): Promise<PartFigures[P]> {
  const args = ['--expose-gc', '--import', 'tsx', '--import', './bench/compiled-code.mjs', 'bench/section-process.ts', part];
  const child = spawn(process.execPath, [...args, ...(quick ? ['--quick'] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (piece: string) => (out += piece));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(JSON.parse(out) as PartFigures[P]);
      else reject(new Error(`the exhaustive section's ${part} part failed in its own process (exit ${code ?? signal})`));
    });
  });
}
