// `npm run build` (and `prepare`, on `npm ci` and `npm pack`): compile the library and the CLI to
// dist/, copy the plain-JavaScript thread entries the compiled code starts, and record what it was
// compiled from (bin/build-digest.js). When dist/ already holds the build of the sources as they
// are, there is nothing to do: tsc's output is a function of its inputs, and a test that packs the
// package while other tests run the CLI from dist/ then never sees dist/ half-written. `--force`
// builds anyway.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDigest, DIGEST_FILE, distIsFresh } from './build-digest.js';

/** Worker entries written in JavaScript that compiled code starts as `new URL('./x.mjs', import.meta.url)`:
 *  tsc does not copy them (test/sim/cli/entry-build.test.ts finds every such reference in the sources). */
export const COPIED = ['sim/wire/process/loopback-worker.mjs', 'sim/plugins/import-probe.mjs'];

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--force') && distIsFresh(root)) {
    process.stdout.write('dist/ is the build of the sources as they are; nothing to build (npm run build -- --force builds anyway)\n');
  } else {
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    for (const file of COPIED) copyFileSync(join(root, file), join(root, 'dist', file));
    const digest = buildDigest(root);
    // Written last: a build that failed part-way leaves no digest, and the CLI runs the sources.
    if (digest) writeFileSync(join(root, DIGEST_FILE), `${digest}\n`);
  }
}
