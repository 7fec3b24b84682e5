// bench/compiled-code.mjs: the bench measures the code the CLI runs. While dist/ is the build of the
// sources, an import of a package source (models/, sim/, properties/, reports/) resolves to its
// compiled twin in dist/ and BENCH_CODE says 'dist'; the bench's own files, tests and sources tsc
// leaves out stay as they are; with dist/ stale the sources run, and the bench says so.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { distIsFresh } from '../../bin/build-digest.js';
// @ts-expect-error: plain JavaScript of the bench, without declarations
import { compiledUrl } from '../../bench/compiled-hook.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tree = mkdtempSync(join(tmpdir(), 'mcp-faultsim-compiled-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('the compiled twin of a source', () => {
  const url = (rel: string) => pathToFileURL(join(tree, rel)).href;
  const rootUrl = `${pathToFileURL(tree).href}/`;
  for (const rel of ['dist/sim/world/world.js', 'dist/models/client.js', 'dist/bench/engine.js', 'dist/sim/a.test.js'])
    mkdirSync(dirname(join(tree, rel)), { recursive: true }), writeFileSync(join(tree, rel), '');

  it("is dist/'s .js of a package source", () => {
    expect(compiledUrl(url('sim/world/world.ts'), rootUrl)).toBe(url('dist/sim/world/world.js'));
    expect(compiledUrl(url('models/client.ts'), rootUrl)).toBe(url('dist/models/client.js'));
  });

  it('is none for the bench, a test, a source without a build, or a file outside the tree', () => {
    expect(compiledUrl(url('bench/engine.ts'), rootUrl)).toBeNull();
    expect(compiledUrl(url('sim/a.test.ts'), rootUrl)).toBeNull();
    expect(compiledUrl(url('sim/wire/readme-section.ts'), rootUrl)).toBeNull();
    expect(compiledUrl('file:///elsewhere/sim/world/world.ts', rootUrl)).toBeNull();
    expect(compiledUrl('node:fs', rootUrl)).toBeNull();
  });
});

describe('node --import tsx --import ./bench/compiled-code.mjs', () => {
  it('resolves the sources to dist/ while dist/ is fresh, else runs them and says so', () => {
    const script = join(tree, 'resolve.mjs');
    writeFileSync(
      script,
      `const world = ${JSON.stringify(pathToFileURL(join(root, 'sim/world/world.ts')).href)};
const { runWorld } = await import(world);
console.log(JSON.stringify([import.meta.resolve(world), import.meta.resolve(${JSON.stringify(pathToFileURL(join(root, 'bench/engine.ts')).href)}), typeof runWorld, process.env.BENCH_CODE]));`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', './bench/compiled-code.mjs', script], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, BENCH_CODE: undefined },
    });
    expect(run.status, run.stderr).toBe(0);
    const [worldUrl, benchUrl, runWorld, code] = JSON.parse(run.stdout);
    const fresh = distIsFresh(root);
    expect(worldUrl).toBe(pathToFileURL(join(root, fresh ? 'dist/sim/world/world.js' : 'sim/world/world.ts')).href);
    expect(benchUrl).toBe(pathToFileURL(join(root, 'bench/engine.ts')).href);
    expect(runWorld).toBe('function');
    expect(code).toBe(fresh ? 'dist' : 'source');
    expect(run.stderr).toBe(fresh ? '' : 'bench: dist/ is not the build of the sources, so the sources run through tsx (npm run build)\n');
  });
});
