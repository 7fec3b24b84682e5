// The oracles judge from what a history records, never with the model's own logic: an oracle that
// called the model's functions could not catch their mistakes. No file of properties/ (the suites
// aside: they are tests that build combinations) may import a value from models/; types are fine.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../properties/', import.meta.url);

describe('properties/', () => {
  it('imports nothing but types from models/', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(8);
    const offending: string[] = [];
    for (const f of files) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      for (const m of text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gms)) {
        const [, , typeOnly, what, from] = m;
        if (!from!.includes('/models/')) continue;
        const values = typeOnly
          ? []
          : what!
              .replace(/[{}]/g, '')
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s && !s.startsWith('type '));
        if (values.length > 0) offending.push(`${f}: ${values.join(', ')} from ${from}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
