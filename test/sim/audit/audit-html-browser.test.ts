// The audit's HTML report in a real headless Chromium (test/fixtures/chromium.ts): one row per
// scenario with its verdict, no console error, nothing fetched from the network.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBES } from '../../../sim/audit/server/probes.ts';
import { SCENARIOS } from '../../../sim/audit/scenarios.ts';
import { run, tempDir } from '../cli/run.ts';
import { launchChromium } from '../../fixtures/chromium.ts';

describe('the audit HTML in headless Chromium', () => {
  it('shows every scenario with its verdict, with a clean console and no request but the page', async () => {
    const out = join(tempDir('audit-html'), 'out');
    const r = await run('audit', '--server', 'sdk-sse', '--quiet', '--out', out);
    expect(r.code).toBe(1);
    const context = await launchChromium();
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('request', (q) => requests.push(q.url()));
      const url = pathToFileURL(join(out, 'audit.html')).href;
      await page.goto(url);
      const rows = page.locator('table tbody tr');
      expect(await rows.count()).toBe(SCENARIOS.length + PROBES.length);
      expect(await page.locator('#unknown-session td:nth-child(3)').textContent()).toBe('conforms');
      expect(await page.locator('#reinit-live-session td:nth-child(2)').textContent()).toBe('loud');
      expect(await page.locator('#cut-reissue-once td:nth-child(2)').textContent()).toBe('not applicable');
      expect(await page.locator('h1').textContent()).toBe('Audit of sdk-sse');
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
