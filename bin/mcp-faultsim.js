#!/usr/bin/env node
// The project is TypeScript run by tsx; register its loader, then hand over to the CLI.
import { register } from 'tsx/esm/api';

// Captured before anything can fake the timers (a wire run does, and one stuck on a real server never
// puts them back).
const realSetTimeout = globalThis.setTimeout;

register();
const { main } = await import('../cli/main.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
// The command has returned: whatever it started should be gone. If something still holds the
// process (a leak), say so and end it, rather than hang with the report already printed.
realSetTimeout(() => {
  process.stderr.write('mcp-faultsim: the command finished but something it started was still running 10 s later; exiting\n');
  process.exit(code === 0 ? 3 : code);
}, 10_000).unref();
