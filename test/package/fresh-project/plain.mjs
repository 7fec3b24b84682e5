// Plain Node, no loader: the library and its vitest helper import, and a check runs.
import { check, combination, FAULT_VOCABULARY } from 'mcp-faultsim';
import { expectNoSilentFailures } from 'mcp-faultsim/vitest';

const r = check(combination({ server: { reinit: 'pin-first' } }), { faults: ['http-502', 'config-reset'], runs: 20 });
console.log(
  JSON.stringify({
    execArgv: process.execArgv,
    vocabulary: FAULT_VOCABULARY.length,
    helper: typeof expectNoSilentFailures,
    verdicts: Object.fromEntries(r.results.map((p) => [p.property, p.verdict])),
  }),
);
