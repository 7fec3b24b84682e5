// The terminal's labels (issue 39): full-matrix cells named by knob and value, and the fold column's
// wrapping (reports/table.ts) that never leaves a line reading only a joining word ("with") nor cuts a
// knob's value mid-word where a `=` offers a cut.
import { describe, expect, it } from 'vitest';
import { buildMatrix } from '../../sim/compare/matrix.ts';
import { wrap, wrapWords } from '../../reports/table.ts';

const cut = { server: {}, client: {} };
const JOINERS = ['with', 'and', 'or', 'of', 'by', 'at', 'on', 'in', 'to', 'from', 'as', 'the', 'a', '+', '·'];

describe('labels and their wrapping', () => {
  it('names every full-matrix cell by its knobs, its id by the values alone', () => {
    const cells = buildMatrix('full', cut);
    expect(cells).toHaveLength(1920);
    expect(cells[0]!.name).toBe(
      'reinit=honor-last streaming=negotiated advertise=static · reconnect=replay-mutable accept=always parser=pinned guards=none',
    );
    expect(cells[0]!.id).toBe('honor-last-negotiated-static-replay-mutable-always-pinned-none');
    for (const c of cells)
      expect(c.name).toMatch(/^reinit=\S+ streaming=\S+ advertise=\S+ · reconnect=\S+ accept=\S+ parser=\S+ guards=\S+$/);
    expect(new Set(cells.map((c) => c.id)).size).toBe(cells.length);
  });

  it('leaves no line reading only a joining word, nor longer than its width, for every label at every width', () => {
    const names = [...buildMatrix('records', cut), ...buildMatrix('full', cut).slice(0, 64)].map((c) => c.name);
    for (const name of names)
      for (let width = 16; width <= 60; width++) {
        const lines = wrap(name, width);
        for (const l of lines) {
          expect(l.length, `${name} @${width}`).toBeLessThanOrEqual(width);
          expect(JOINERS, `${name} @${width}: ${JSON.stringify(lines)}`).not.toContain(l.trim());
        }
        // Nothing lost: the pieces put back together are the label.
        expect(lines.join(' ').replace(/([=.+,-]) /g, '$1')).toBe(name.replace(/([=.+,-]) /g, '$1'));
      }
  });

  it('keeps a joiner with the word it joins, and cuts a long knob after its "="', () => {
    expect(wrap('record 000: client.accept=from-config with server.streaming=accept-header · record alphabet', 28)).toEqual([
      'record 000:',
      'client.accept=from-config',
      'with server.streaming=',
      'accept-header',
      '· record alphabet',
    ]);
    expect(wrapWords('record 000: server.streaming=accept-header with client.accept=always', 24)).toEqual([
      'record 000:',
      'server.streaming=',
      'accept-header',
      'with client.accept=',
      'always',
    ]);
    // No cut in a word: the text reads as before.
    expect(wrapWords('a long name that folds', 9)).toEqual(['a long', 'name that', 'folds']);
  });
});
