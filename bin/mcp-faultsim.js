#!/usr/bin/env node
// The CLI's entry. Installed from npm (or from git), the package holds only dist/: compiled
// JavaScript, started with no TypeScript loader. In a checkout of the repository the source sits
// beside bin/ and is what runs, through tsx, so that the CLI never runs a stale build of the code
// being edited (dist/ is built by `npm run build`, and by `prepare` on `npm ci`).
import { existsSync } from 'node:fs';

const source = new URL('../cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli/main.js'));
}
process.exitCode = await main(process.argv.slice(2));
