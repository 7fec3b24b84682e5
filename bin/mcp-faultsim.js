#!/usr/bin/env node
// The CLI's entry. Installed from npm (or from git), the package holds only dist/: compiled
// JavaScript, started with no TypeScript loader. In a checkout of the repository the source sits
// beside bin/ and is what runs, through tsx, so that the CLI never runs a stale build of the code
// being edited (dist/ is built by `npm run build`, and by `prepare` on `npm ci`).
import { existsSync } from 'node:fs';

// Captured before anything can fake the timers (a wire run does, and one stuck on a real server never
// puts them back).
const realSetTimeout = globalThis.setTimeout;

const source = new URL('../cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli/main.js'));
}
const code = await main(process.argv.slice(2));
process.exitCode = code;
// The command has returned: whatever it started should be gone. If something still holds the
// process (a leak), say so and end it, rather than hang with the report already printed.
realSetTimeout(() => {
  process.stderr.write('mcp-faultsim: the command finished but something it started was still running 10 s later; exiting\n');
  process.exit(code === 0 ? 3 : code);
}, 10_000).unref();
