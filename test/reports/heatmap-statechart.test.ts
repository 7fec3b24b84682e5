// The HTML page's two pictures, as data: a heat map square is the worst class of the cell's findings
// that use the family (a tool run twice is silent), else whether the family acted at all; a statechart
// is the machine's definition (every state, every transition that leaves its state), and a finding's
// path lights the states it entered and the arcs that took it there.
import { describe, expect, it } from 'vitest';
import { clientMachine } from '../../models/client.ts';
import { serverMachine } from '../../models/server.ts';
import { heatMark } from '../../reports/compare-html-heatmap.ts';
import { chartOf, chartSvg, pathKeys } from '../../reports/statechart-svg.ts';
import type { CellResult } from '../../sim/compare/compare.ts';
import type { Finding } from '../../sim/compare/findings.ts';
import type { HistoryEntry } from '../../sim/core/history.ts';
import { catalogOf } from '../../sim/world/engine/transitions.ts';

const cell = (over: Partial<CellResult> = {}) =>
  ({
    class: 'silent',
    faults: ['http-502', 'config-reset', 'strip-header:accept', 'stream-cut'],
    stats: { faultsApplied: { 'http-502': 3, 'config-reset': 2, 'strip-header:accept': 0 } },
    ...over,
  }) as unknown as CellResult;

const finding = (plan: string[], property: string, outcome: string, kind = 'violation') =>
  ({
    kind,
    plan: plan.map((fault, at) => ({ fault, at })),
    properties: [{ property }],
    outcomes: [{ callId: 0, outcome }],
  }) as unknown as Finding;

describe('the heat map', () => {
  it('is the worst class among the findings that use the family, a duplicate execution silent', () => {
    const fs = [finding(['config-reset', 'http-502'], 'recovers', 'error'), finding(['http-502'], 'at-most-once', 'ok')];
    expect(heatMark(cell(), 'http-502', fs)).toBe('silent');
    expect(heatMark(cell(), 'config-reset', fs)).toBe('loud, never recovers');
  });

  it('says whether the family acted where no finding uses it, and when the cell lacks it', () => {
    expect(heatMark(cell(), 'http-502', [])).toBe('no finding');
    expect(heatMark(cell(), 'strip-header', [])).toBe('never acted');
    expect(heatMark(cell(), 'stream-cut', [])).toBe('never acted');
    expect(heatMark(cell(), 'session-expire', [])).toBe('not in this cell');
    expect(heatMark(cell({ class: 'broken without faults' }), 'http-502', [])).toBe('broken without faults');
    expect(heatMark(cell(), 'http-502', [finding(['http-502'], 'x', 'error', 'policy-error')])).toBe('policy-error');
  });
});

describe('the statecharts', () => {
  it('draw every state of each machine and every transition that leaves its state', () => {
    for (const m of [clientMachine, serverMachine]) {
      const chart = chartOf(m);
      expect(chart.states.map((s) => s.path)).toEqual(catalogOf(m).states);
      // Each catalogued transition with a target is on an arc from its declaring state to that target.
      for (const t of catalogOf(m).transitions) {
        const [, from, to] = t.match(/^(.*?): .* → (.*)$/)!;
        if (to === '(stays)') continue;
        expect(
          chart.arcs.some((a) => a.from === from && a.to === to),
          t,
        ).toBe(true);
      }
      const svg = chartSvg(chart);
      expect(svg.match(/<g class="st/g)).toHaveLength(chart.states.length);
      expect(svg.match(/<g class="tr"/g)).toHaveLength(chart.arcs.length);
      expect(svg).not.toMatch(/<script|href="http/);
    }
  });

  it('light a finding’s path: the states entered and the arcs that took it', () => {
    const charts = [chartOf(clientMachine), chartOf(serverMachine)];
    const history = [
      { t: 0, kind: 'state', machine: 'client', from: 'idle', to: 'connecting.initializing' },
      { t: 1, kind: 'state', machine: 'client', from: 'connecting.initializing', to: 'connecting.notifying' },
      { t: 2, kind: 'state', machine: 'server', from: 'empty', to: 'serving' },
      { t: 3, kind: 'invoke', callId: 0, method: 'tools/call', progress: false },
    ] as unknown as HistoryEntry[];
    const keys = pathKeys(charts, history);
    expect(keys).toEqual(
      expect.arrayContaining([
        'client:idle',
        'client:connecting',
        'client:connecting.initializing',
        'client:connecting.notifying',
        'client:idle->connecting',
        'client:connecting.initializing->connecting.notifying',
        'server:empty->serving',
      ]),
    );
    expect(keys).not.toContain('client:ready');
  });
});
