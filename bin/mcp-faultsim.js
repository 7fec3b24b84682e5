#!/usr/bin/env node
// The CLI's entry. Installed from npm (or from git), the package holds only dist/: compiled
// JavaScript, started with no TypeScript loader. In a checkout of the repository the sources sit
// beside bin/: dist/ runs while it is the build of the sources as they are (bin/build-digest.js;
// `npm run build`, and `prepare` on `npm ci`, build it), and otherwise the sources run through tsx,
// so that the CLI never runs a stale build of the code being edited. MCP_FAULTSIM_FROM_SOURCE=1
// runs the sources in any case (their stack traces name .ts lines).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Captured before anything can fake the timers (a wire run does, and one stuck on a real server never
// puts them back).
const realSetTimeout = globalThis.setTimeout;

const source = new URL('../sim/cli/main.ts', import.meta.url);
const checkout = existsSync(source);
const fromSource =
  checkout &&
  (process.env.MCP_FAULTSIM_FROM_SOURCE === '1' ||
    !(await import('./build-digest.js')).distIsFresh(fileURLToPath(new URL('..', import.meta.url))));
let main;
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/sim/cli/main.js'));
}
const code = await main(process.argv.slice(2));
process.exitCode = code;
// The command has returned: whatever it started should be gone. If something still holds the
// process (a leak), say so and end it, rather than hang with the report already printed.
realSetTimeout(() => {
  process.stderr.write('mcp-faultsim: the command finished but something it started was still running 10 s later; exiting\n');
  process.exit(code === 0 ? 3 : code);
}, 10_000).unref();
