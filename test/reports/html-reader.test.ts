// What a reader of compare.html sees, in a real headless Chromium at 800 px (test/fixtures/chromium.ts),
// on the default comparison: a class chip changes something in view, a pressed chip is legible
// (computed contrast ≥ 4.5:1), the page never scrolls sideways, the matrix header stays in view and
// uncovered while the matrix scrolls, the filters live in the address and come back on load, a tool
// that ran twice is never painted ok, every class has one word, and the statecharts are the machines'
// own definitions with a finding's path lit on them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { getStateNodes } from 'xstate/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientMachine } from '../../models/client.ts';
import { serverMachine } from '../../models/server.ts';
import { defaultComparison } from '../fixtures/default-comparison.ts';
import { launchChromium } from '../fixtures/chromium.ts';

type Doc = {
  documentElement: { scrollWidth: number; clientWidth: number };
  elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null;
};
// Inside page.evaluate only globals exist: each callback reads the page's document this way.

/** WCAG's contrast ratio of two `rgb(…)` / `rgba(…)` colours as getComputedStyle gives them. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => Number(v) / 255);
    const f = (x: number) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(bl!);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('compare.html as a reader sees it at 800 px', () => {
  let context: BrowserContext;
  let page: Page;
  let url: string;
  let json: { cells: { class: string }[]; findings: { id: string; properties: { property: string }[] }[] };

  beforeAll(async () => {
    const out = (await defaultComparison()).dir;
    json = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8'));
    url = pathToFileURL(join(out, 'compare.html')).href;
    context = await launchChromium({ width: 800, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
  }, 300_000);

  afterAll(async () => {
    await context?.close();
  });

  it('never scrolls sideways', async () => {
    const { scrollWidth, clientWidth } = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: Doc }).document.documentElement;
      return { scrollWidth: d.scrollWidth, clientWidth: d.clientWidth };
    });
    expect(clientWidth).toBeLessThanOrEqual(800);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });

  it('opens with the recommendation, then the heat map, then the causes', async () => {
    const order = await page.locator('main > section').evaluateAll((s) => s.map((x) => x.id));
    expect(order[0]).toBe('recommendation');
    expect(order[1]).toBe('heatmap');
    expect(order.indexOf('causes')).toBe(2);
    // Its first words are in the first screen: what it was computed over, and a first scope's choices.
    const top = await page.locator('#recommendation h2').evaluate((h) => h.getBoundingClientRect().top);
    expect(top).toBeLessThan(900);
    expect(await page.locator('#recommendation section.scope').count()).toBeGreaterThan(0);
    expect(await page.locator('#recommendation').textContent()).toContain('matrix that ran');
    expect(await page.locator('#heat tbody tr').count()).toBe(json.cells.length);
  });

  it('a class chip filters what is in view, and its pressed state is legible', async () => {
    const chip = page.locator('[data-class-chip="silent"]');
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    // In the viewport, and what is at its centre is the row itself (nothing covers it).
    const rows = page.locator('#heat tbody tr:visible');
    const silent = json.cells.filter((c) => c.class === 'silent').length;
    await expect.poll(() => rows.count()).toBe(silent);
    expect(silent).toBeLessThan(json.cells.length);
    expect(new Set(await rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-class'))))).toEqual(new Set(['silent']));
    const first = rows.first();
    const seen = await first.evaluate((row) => {
      const r = row.getBoundingClientRect();
      const at = (globalThis as unknown as { document: Doc }).document.elementFromPoint(r.left + 10, r.top + r.height / 2);
      return {
        top: r.top,
        bottom: r.bottom,
        own: at !== null && at.closest('tr') === row,
        height: (globalThis as unknown as { innerHeight: number }).innerHeight,
      };
    });
    expect(seen.top).toBeGreaterThanOrEqual(0);
    expect(seen.bottom).toBeLessThanOrEqual(seen.height);
    expect(seen.own).toBe(true);
    // The matrix below follows the chip.
    expect(await page.locator('#matrix tbody tr:visible').count()).toBe(silent);
    // Every chip, pressed and not, at least 4.5:1 against its own background (or the page's).
    for (const pressed of [true, false]) {
      for (const c of await page.locator('[data-class-chip]').all()) {
        if ((await c.getAttribute('aria-pressed')) !== String(pressed)) continue;
        const { fg, bg } = await c.evaluate((el) => {
          const s = (
            globalThis as unknown as { getComputedStyle(e: unknown): { color: string; backgroundColor: string } }
          ).getComputedStyle(el);
          return { fg: s.color, bg: s.backgroundColor };
        });
        const ratio = contrast(fg, bg.startsWith('rgba(0, 0, 0, 0)') ? 'rgb(255, 255, 255)' : bg);
        expect(ratio, `${await c.textContent()} (pressed ${pressed}): ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('keeps the filters in the address and restores them on load', async () => {
    expect(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toContain('class=silent');
    await page.selectOption('[data-filter="class"]', '');
    await page.goto(`${url}#class=${encodeURIComponent('loud, recovers')}&text=reinit`);
    await page.reload();
    expect(await page.locator('[data-filter="class"]').inputValue()).toBe('loud, recovers');
    expect(await page.locator('[data-filter="text"]').inputValue()).toBe('reinit');
    expect(await page.locator('[data-class-chip="loud, recovers"]').getAttribute('aria-pressed')).toBe('true');
    const shown = await page
      .locator('#matrix tbody tr:visible')
      .evaluateAll((r) => r.map((x) => [x.getAttribute('data-class'), x.getAttribute('data-text')] as const));
    expect(shown.length).toBeGreaterThan(0);
    for (const [cls, text] of shown) {
      expect(cls).toBe('loud, recovers');
      expect(text).toContain('reinit');
    }
    expect(await page.locator('#shown').textContent()).toBe(`${shown.length} of ${json.cells.length} cells`);
    await page.goto(url);
  });

  it('keeps the matrix header in view and uncovered while the matrix scrolls', async () => {
    const box = page.locator('.matrix-box');
    await box.evaluate((b) => {
      b.scrollIntoView({ block: 'start' });
      (b as unknown as { scrollTop: number }).scrollTop = 400;
    });
    const th = page.locator('#matrix thead th').first();
    const where = await th.evaluate((h) => {
      const r = h.getBoundingClientRect();
      const boxTop = (h.closest('.matrix-box') as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top;
      const at = (globalThis as unknown as { document: Doc }).document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { top: r.top, boxTop, own: at !== null && at.closest('th') === h };
    });
    expect(await box.evaluate((b) => (b as unknown as { scrollTop: number }).scrollTop)).toBeGreaterThan(0);
    expect(Math.abs(where.top - where.boxTop)).toBeLessThanOrEqual(2);
    expect(where.top).toBeGreaterThanOrEqual(0);
    expect(where.own).toBe(true);
  });

  it('never paints a tool that ran twice as ok, and uses one word per class', async () => {
    const twice = json.findings.find((f) => f.properties.some((p) => p.property === 'at-most-once'));
    expect(twice, 'the default comparison has a duplicate execution').toBeDefined();
    const call = page.locator(`[id="finding-${twice!.id}"] .timeline .call`).first();
    expect(await call.getAttribute('class')).toContain('duplicate');
    expect(await call.getAttribute('class')).not.toMatch(/\bok\b/);
    expect(await call.textContent()).toMatch(/ran \d+ times/);
    const text = (await page.locator('body').textContent())!;
    expect(text).not.toContain('loud, stuck');
    expect(text).toContain('loud, never recovers');
  });

  it('draws both statecharts from the machines’ definitions and lights a finding’s path on them', async () => {
    for (const m of [clientMachine, serverMachine]) {
      const defined = getStateNodes(m)
        .map((n) => `${m.id}:${n.path.join('.')}`)
        .filter((k) => !k.endsWith(':'));
      const drawn = await page.locator(`#chart-${m.id} g.st`).evaluateAll((g) => g.map((x) => x.getAttribute('data-key')));
      expect(new Set(drawn)).toEqual(new Set(defined));
    }
    expect(await page.locator('svg.chart .on').count()).toBe(0);
    const first = json.findings[0]!.id;
    await page.selectOption('#path-pick', first);
    const lit = page.locator('#chart-client .on');
    expect(await lit.count()).toBeGreaterThan(1);
    expect(await page.locator('#chart-client .tr.on').count()).toBeGreaterThan(0);
    await page.locator('#chart-client').scrollIntoViewIfNeeded();
    expect(await lit.first().isVisible()).toBe(true);
    expect(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toContain(
      `finding=${first}`,
    );
  });
});
