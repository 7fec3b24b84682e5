#!/usr/bin/env node
// The project is TypeScript run by tsx; register its loader, then hand over to the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
