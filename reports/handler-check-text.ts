// A check of a user's own server or client (mcp-faultsim/vitest) as the message of the Error it
// throws: the wire check report, with a line that reproduces it from the test instead of the CLI.
import type { WireReport } from './wire-check-text.ts';
import { renderWireCheck } from './wire-check-text.ts';

/** `call` names the helper as the test called it: `expectNoSilentFailures(handler, …)`. */
export function renderHandlerCheck(r: WireReport, call: string): string {
  const again = `${call.replace(/\)$/, '')}, { faults: ${JSON.stringify(r.faults)}, seed: ${r.seed}, runs: ${r.runs} })`;
  return renderWireCheck(r, { client: '', server: '' })
    .split('\n')
    .map((line) => (line.startsWith('  reproduce ') ? `  reproduce ${again} (the same seed draws the same plans)` : line))
    .join('\n');
}
