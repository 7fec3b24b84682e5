// docs/design.md's structure section is the tree as it is: the generated stage diagram and file map
// (bench/design-map.ts) must equal what the page holds, so a moved, added or removed file, or a
// changed stage rule, fails here until `npm run design:docs` is run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { designSection, layers } from '../../bench/design-map.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('docs/design.md structure section', () => {
  it('is what npm run design:docs generates from the dependency rules and the tree', () => {
    const page = readFileSync(`${ROOT}docs/design.md`, 'utf8');
    const begin = '<!-- design-map:begin -->';
    const end = '<!-- design-map:end -->';
    const block = page.slice(page.indexOf(begin) + begin.length, page.indexOf(end)).trim();
    expect(page).toContain(begin);
    expect(block).toBe(designSection(ROOT).trim());
  });

  it('draws every stage the rules name, in their order', () => {
    const names = layers(ROOT).map((l) => l.name);
    expect(names[0]).toBe('models');
    expect(names.at(-1)).toBe('sim/cli');
    const section = designSection(ROOT);
    for (const n of names) expect(section).toContain(`["${n}/"]`);
  });
});
