// docs/library.md shows the library's examples verbatim: each file of test/examples/ it names is in
// the page as a fenced block, word for word below its header comment, so the page cannot drift from
// the code `npm test` and the packaging test (test/package/) run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const doc = readFileSync(`${ROOT}docs/library.md`, 'utf8');

/** A file less its leading `//` header: what the page shows. */
function body(path: string): string {
  const lines = readFileSync(`${ROOT}${path}`, 'utf8').split('\n');
  let i = 0;
  while (lines[i]?.startsWith('//')) i++;
  return lines.slice(i).join('\n').trim();
}

describe('docs/library.md examples', () => {
  it('names the tarball npm pack makes of this version in its install line', () => {
    const { name, version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { name: string; version: string };
    expect(doc).toContain(`npm install --save-dev ./${name}/${name}-${version}.tgz`);
  });

  for (const file of ['handler-example.test.ts', 'client-example.test.ts', 'stateful-example.test.ts'])
    it(`shows test/examples/${file} verbatim`, () => {
      expect(doc).toContain(`\`\`\`ts\n${body(`test/examples/${file}`)}\n\`\`\``);
    });
});
