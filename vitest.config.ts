import { defineConfig } from 'vitest/config';

const source = (file: string) => new URL(file, import.meta.url).pathname;

export default defineConfig({
  // The package's own name resolves to the source here (dist/ is for the installed package).
  resolve: {
    alias: [
      { find: /^mcp-faultsim$/, replacement: source('./index.ts') },
      { find: /^mcp-faultsim\/vitest$/, replacement: source('./vitest.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/fixtures/default-comparison.setup.ts'],
    // vitest's default is one worker less than the cores: one worker on these 2-core machines, with the
    // second core idle while a test waits on a real server, a browser or a child process.
    maxWorkers: 2,
    // The test files share their worker's process and modules rather than each starting one of its
    // own: the whole suite ran 734 s wall with a process per file, 609 s shared, both with its files
    // in a fresh clone's order (by size), and 543 s shared in the order of the durations a run before
    // cached (`npx vitest run` on this 2-core machine, all 1053 tests passing); CI runs it twice. What that asks
    // of a test: put back what it changes outside itself, process.env (test/fixtures/env.ts `setEnv`)
    // and the switches of the run store and the kept draws (their afterEach); the module-level
    // caches are keyed by their inputs. It passed with its files in other orders too: by size (a
    // fresh clone's), and shuffled (`--sequence.shuffle`, seed 7, Node 20; `--sequence.shuffle.files=true
    // --sequence.shuffle.tests=false`, seed 3, Node 24). Tests within a file keep their order: a test
    // that says its property was reached follows that property's test.
    isolate: false,
    // The JSON report is what .ci/run reads the pass/fail counts from.
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
