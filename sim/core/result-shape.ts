// A result compared by its shape — how many items, of which type, empty or not — never by its text:
// a real server's own tools answer with what their state says (an order number, a count, "stored
// #N"), so two fault-free runs already differ in text, while a silent empty or cut-short result still
// differs in shape. Used by the server audit on a server's own tools (audit/server/runner.ts) and by
// the library helpers on a user's server or client (wire/handler-check.ts).
import type { History } from './history.ts';

export function shapeResults(h: History): History {
  const entries = h.entries.map((e) =>
    e.kind === 'end' && e.end === 'result' ? { ...e, content: e.content.map((c) => ({ type: c.type, text: c.text ? '(text)' : '' })) } : e,
  );
  return { ...h, entries };
}
