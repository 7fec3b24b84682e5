// The tool's name and version, as recorded in every report and counterexample file.
import { readFileSync } from 'node:fs';

// From the source (sim/core/tool.ts) the package.json is two folders up; compiled (dist/sim/core/tool.js), three.
const here = new URL(import.meta.url).pathname.endsWith('.ts') ? '../../package.json' : '../../../package.json';
const pkg = JSON.parse(readFileSync(new URL(here, import.meta.url), 'utf8')) as { name: string; version: string };

export const TOOL: { name: string; version: string } = { name: pkg.name, version: pkg.version };
