// The HTML report in a real headless Chromium (test/fixtures/chromium.ts): the matrix renders,
// sorts and filters, a finding opens to its timeline, hostile history text is shown as text and
// never run, nothing is fetched from the network, and the console stays clean.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultComparison, evilComparison } from '../fixtures/default-comparison.ts';
import { EVIL } from '../fixtures/policies/evil.ts';
import { tempDir } from '../sim/cli/run.ts';
import { launchChromium } from '../fixtures/chromium.ts';

describe('the HTML report in headless Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let cells: number;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    const out = (await evilComparison()).dir;
    cells = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')).cells.length;
    context = await launchChromium();
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => (problems.push(`dialog: ${d.message()}`), void d.dismiss()));
    page.on('request', (q) => requests.push(q.url()));
    await page.goto(pathToFileURL(join(out, 'compare.html')).href);
  }, 300_000);

  afterAll(async () => {
    await context?.close();
  });

  const visibleRows = () => page.locator('#matrix tbody tr:visible');

  it('renders the whole matrix', async () => {
    expect(cells).toBeGreaterThan(10);
    await expect.poll(() => visibleRows().count()).toBe(cells);
    expect(await page.locator('#shown').textContent()).toBe(`${cells} of ${cells} cells`);
    expect(await page.locator('#matrix thead th').allTextContents()).toEqual(
      expect.arrayContaining(['no-silent-empty', 'recovers', 'silent']),
    );
  });

  it('sorts by a column, both ways', async () => {
    const silent = page.locator('#matrix thead th', { hasText: /^silent$/ });
    // The silent column counts calls, then the runs a tool ran twice (+Nd) and capabilities changed (+Nc):
    // it sorts by all of them (data-sort), and its text opens with the calls.
    const cellsOf = () => page.locator('#matrix tbody tr td:nth-child(6)');
    const column = async () => cellsOf().evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-sort'))));
    for (const text of await cellsOf().allTextContents()) expect(text).toMatch(/^\d+( \+\d+d)?( \+\d+c)?$/);
    await silent.click();
    const up = await column();
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await silent.click();
    const down = await column();
    expect(down).toEqual([...up].sort((a, b) => b - a));
    expect(down[0]).toBeGreaterThan(down.at(-1)!);
  });

  it('filters by class and by knob, and counts what it shows', async () => {
    // Only the classes present are offered.
    expect(await page.locator('[data-filter="class"] option').allTextContents()).not.toContain('policy-error');
    await page.selectOption('[data-filter="class"]', 'silent');
    const n = await visibleRows().count();
    expect(n).toBeGreaterThan(0);
    expect(new Set(await visibleRows().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-class'))))).toEqual(new Set(['silent']));
    await page.selectOption('[data-filter="reinit"]', 'reject');
    const m = await visibleRows().count();
    expect(m).toBeLessThan(n);
    expect(await page.locator('#shown').textContent()).toBe(`${m} of ${cells} cells`);
    await page.selectOption('[data-filter="class"]', '');
    await page.selectOption('[data-filter="reinit"]', '');
    await expect.poll(() => visibleRows().count()).toBe(cells);
  });

  it('opens a finding to its timeline when its number is clicked', async () => {
    const link = page.locator('#matrix a.flink').first();
    const id = (await link.getAttribute('href'))!.slice(1);
    expect(await page.locator(`[id="${id}"]`).evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    await link.click();
    const finding = page.locator(`[id="${id}"]`);
    expect(await finding.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
    await expect.poll(() => finding.locator('.timeline .call').first().isVisible()).toBe(true);
    expect(await finding.locator('.timeline .ev.fault').count()).toBeGreaterThan(0);
    expect(await finding.locator('ol.plan li').count()).toBeGreaterThan(0);
  });

  it('shows hostile policy text as text and never runs it', async () => {
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    const text = await page.locator('body').textContent();
    expect(text).toContain(EVIL);
    await page.fill('[data-filter="text"]', 'evil');
    await expect.poll(() => visibleRows().count()).toBeGreaterThan(0);
    await page.fill('[data-filter="text"]', '');
  });

  it('fetches nothing and logs no error', () => {
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the default comparison at 1400 px', () => {
  let context: BrowserContext;
  let page: Page;
  let shot: string;

  beforeAll(async () => {
    const out = (await defaultComparison()).dir;
    context = await launchChromium({ width: 1400, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(pathToFileURL(join(out, 'compare.html')).href);
    shot = join(tempDir('html-width'), 'matrix-1400.png');
    await page.locator('#matrix').screenshot({ path: shot });
  }, 300_000);

  afterAll(async () => {
    await context?.close();
  });

  it('shows every matrix column, the findings column included, without scrolling sideways', async () => {
    const width = await page.evaluate(
      () => (globalThis as unknown as { document: { documentElement: { clientWidth: number } } }).document.documentElement.clientWidth,
    );
    expect(width).toBeLessThanOrEqual(1400);
    const heads = await page
      .locator('#matrix thead th')
      .evaluateAll((ths) => ths.map((th) => ({ text: th.textContent, right: th.getBoundingClientRect().right })));
    expect(heads.at(-1)!.text).toBe('findings');
    for (const h of heads) expect(h.right, `${h.text} ends at ${h.right} px`).toBeLessThanOrEqual(width);
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      ),
    ).toBeLessThanOrEqual(width);
    // The screenshot of the matrix is no wider than the window either (what a reader sees).
    const png = readFileSync(shot);
    expect(png.readUInt32BE(16)).toBeLessThanOrEqual(1400);
  });

  it('leads with the recommendation, the heat map, the cause groups and what changes what, every column in view', async () => {
    const width = await page.evaluate(
      () => (globalThis as unknown as { document: { documentElement: { clientWidth: number } } }).document.documentElement.clientWidth,
    );
    for (const id of ['causes', 'changes']) {
      const right = await page.locator(`#${id} table`).evaluate((t) => t.getBoundingClientRect().right);
      expect(right, id).toBeLessThanOrEqual(width);
    }
    const order = await page.locator('main > section').evaluateAll((s) => s.map((x) => x.id || x.querySelector('h2')?.textContent));
    expect(order.slice(0, 4)).toEqual(['recommendation', 'heatmap', 'causes', 'changes']);
  });
});
