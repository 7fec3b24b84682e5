// A real server's own tools answer with what their state says (an order number, a count, a time):
// two fault-free runs already differ. Against them the audit compares each result by its shape —
// how many items, of which type, empty or not — so that a silent empty or cut-short result is still
// caught and a changed text is not called one. Preset tools (echo, work) answer the same every run
// and are compared whole.
import type { History } from '../../core/history.ts';

export function shapeResults(h: History): History {
  const entries = h.entries.map((e) =>
    e.kind === 'end' && e.end === 'result' ? { ...e, content: e.content.map((c) => ({ type: c.type, text: c.text ? '(text)' : '' })) } : e,
  );
  return { ...h, entries };
}
