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
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts'],
    // The JSON report is what .ci/run reads the pass/fail counts from.
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
