// The model-tier commands load none of the libraries only other commands need: zod (reading policy
// modules and counterexample files), the MCP SDK, msw and fake-timers (the wire tier). Each is loaded
// where it is used, by a dynamic import, so that `compare`, `check` and `explore` start without them
// (their start and their pool threads' took 0.1–0.35 s of CPU more with them: docs/performance.md).
// Checked on the sources' static imports, the graph a process loads before its first await.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HEAVY = /^(zod|@modelcontextprotocol\/sdk|msw|@sinonjs\/fake-timers)(\/|$)/;

/** Every package a module reaches by static value imports (`import type` and `await import()` left out), with one path to each. */
function packagesReached(entry: string): Map<string, string[]> {
  const via = new Map<string, string | null>([[entry, null]]);
  const packages = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)'/gms)) {
      const spec = m[2]!;
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) {
        const path: string[] = [spec];
        for (let at: string | null = file; at; at = via.get(at) ?? null) path.unshift(at);
        if (!packages.has(spec)) packages.set(spec, path);
        continue;
      }
      const target = join(dirname(file), spec);
      if (!via.has(target)) {
        via.set(target, file);
        queue.push(target);
      }
    }
  }
  return packages;
}

const heavy = (entry: string) => [...packagesReached(entry)].filter(([p]) => HEAVY.test(p)).map(([, path]) => path.join(' → '));

describe('what a command loads as it starts', () => {
  it.each(['compare', 'check', 'explore'])('%s reaches none of zod, the SDK, msw or fake-timers by a static import', (command) => {
    expect(heavy(`sim/cli/commands/${command}.ts`)).toEqual([]);
  });
  it('sees them where they are imported: the walk is not blind', () => {
    const reached = (entry: string) => heavy(entry).join('\n');
    expect(reached('sim/cli/commands/replay.ts')).toContain('zod');
    for (const p of ['@modelcontextprotocol/sdk', 'msw', '@sinonjs/fake-timers']) expect(reached('sim/cli/commands/audit.ts')).toContain(p);
  });
});
