// The tool's name and version, as recorded in every report and counterexample file.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const TOOL: { name: string; version: string } = { name: pkg.name, version: pkg.version };
