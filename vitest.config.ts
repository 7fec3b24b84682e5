import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts'],
    // The JSON report is what .ci/run reads the pass/fail counts from.
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
