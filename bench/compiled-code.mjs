// `node --import tsx --import ./bench/compiled-code.mjs`: the bench measures the code the CLI runs.
// While dist/ is the build of the sources as they are (bin/build-digest.js), every import of the
// package's sources resolves to dist/ (bench/compiled-hook.mjs); the bench's own files stay
// TypeScript. Through tsx the engine ran a quarter slower than compiled: tsx names every function a
// closure makes (esbuild's keepNames), on the engine's hot path too. A stale or missing dist/ runs
// the sources, and says so. `BENCH_CODE` tells the sections which ran ('dist' or 'source').
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { distIsFresh } from '../bin/build-digest.js';

const rootUrl = new URL('..', import.meta.url);
const fresh = distIsFresh(fileURLToPath(rootUrl));
if (fresh) register('./compiled-hook.mjs', import.meta.url, { data: { root: rootUrl.href } });
else if (isMainThread && process.env.BENCH_CODE === undefined)
  process.stderr.write('bench: dist/ is not the build of the sources, so the sources run through tsx (npm run build)\n');
process.env.BENCH_CODE = fresh ? 'dist' : 'source';
