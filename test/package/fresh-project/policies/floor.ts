// A policy module in a CommonJS folder that imports the installed package.
import { definePolicies } from 'mcp-faultsim';

export default definePolicies({
  server: { reinit: { 'fresh-floor': { describe: 'rejects every re-initialize', decide: () => ({ kind: 'reject' as const }) } } },
});
