// Type-checked by `tsc` in the fresh project: the library's and the helper's types as a user sees them.
import { check, combination, type CheckResult, type Combination, type FaultPlan } from 'mcp-faultsim';
import { expectNoSilentFailures, type FetchHandler, type WireCheckResult } from 'mcp-faultsim/vitest';

const c: Combination = combination({ client: { parser: 'adaptive' } });
const plan: FaultPlan = [{ fault: 'http-502', at: 1 }];
const result: CheckResult = check(c, { faults: ['http-502'], runs: 5 });
const handler: FetchHandler = async () => Response.json({ jsonrpc: '2.0', id: 1, result: {} });
const wire: Promise<WireCheckResult> = expectNoSilentFailures(handler, { tools: { plain: 'echo' }, runs: 1 });
export { plan, result, wire };
