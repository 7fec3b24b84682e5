// A note's entry is `{ t, kind, ...note }` key for key, whether the note has one of the literals
// (world/note-entry.ts) or not: same keys, same order, same values, on every note of a sample of runs
// of every seed cell, and on notes whose keys differ from a literal's by order, by one more or one fewer.
import { describe, expect, it } from 'vitest';
import { SEED_CELLS } from '../../../sim/core/cells.ts';
import { inputs } from '../../../sim/search/random/arbitraries.ts';
import { sampleLazily } from '../../../sim/search/random/input-stream.ts';
import { literalNotes, noteEntry } from '../../../sim/world/note-entry.ts';
import { runWorld } from '../../../sim/world/world.ts';
import { DEFAULT_WORLD } from '../../../sim/world/world.ts';

const copy = (t: number, kind: 'client' | 'server', note: object) => ({ t, kind, ...note });
const same = (a: object, b: object) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

describe('note entries', () => {
  it('equal the key-by-key copy for every literal, its keys in its order or another', () => {
    const shapes = literalNotes();
    expect(shapes.length).toBeGreaterThan(10);
    for (const { kind, name, keys } of shapes) {
      const note: Record<string, unknown> = {};
      for (const [i, k] of keys.entries()) note[k] = k === 'note' ? name : { value: i, of: k };
      const entry = noteEntry(7, kind, note);
      same(entry, copy(7, kind, note));
      expect(Object.keys(entry)).toEqual(['t', 'kind', ...keys]);
      const reversed: Record<string, unknown> = { note: name };
      for (const k of [...keys].reverse()) if (k !== 'note') reversed[k] = note[k];
      same(noteEntry(7, kind, reversed), copy(7, kind, reversed));
    }
  });

  it('equal the key-by-key copy on every note of the seed cells’ runs', () => {
    let notes = 0;
    for (const cell of SEED_CELLS) {
      for (const [plan, workload, schedule] of sampleLazily(inputs({}), 17, 3)) {
        for (const e of runWorld({ combination: cell.combination, plan, workload, schedule }, DEFAULT_WORLD).entries) {
          if (e.kind !== 'client' && e.kind !== 'server') continue;
          const { t, kind, ...note } = e;
          same(noteEntry(t, kind, note), copy(t, kind, note));
          notes++;
        }
      }
    }
    expect(notes).toBeGreaterThan(300);
  });

  it('keep the note’s own keys where they differ from a literal’s', () => {
    const read = { note: 'read', callId: 1, req: 2, contentType: 'application/json', expected: 'json' };
    same(noteEntry(5, 'client', read), copy(5, 'client', read));
    const reordered = { note: 'read', req: 2, callId: 1, contentType: 'application/json', expected: 'json' };
    same(noteEntry(5, 'client', reordered), copy(5, 'client', reordered));
    const more = { ...read, extra: true };
    same(noteEntry(5, 'client', more), copy(5, 'client', more));
    const { expected: _dropped, ...fewer } = read;
    same(noteEntry(5, 'client', fewer), copy(5, 'client', fewer));
    expect(Object.keys(noteEntry(5, 'client', fewer))).not.toContain('expected');
    // The same name on the other machine is another note.
    same(noteEntry(5, 'server', read), copy(5, 'server', read));
  });
});
