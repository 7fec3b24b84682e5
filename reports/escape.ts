// Escaping every text that reaches a report: Markdown (a table cell, a line, code spans and fenced
// blocks) and HTML.

/** Text inside a table cell or a line: no pipes, no HTML, no line breaks. */
export function mdText(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]]/g, (m) => `\\${m}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
}

export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A fenced block that no backtick run inside the text can close early. */
export function fence(lang: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/** A code span that no backtick run inside the text can close early, on one line. */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${f}${pad}${text.replace(/[\r\n]+/g, ' ')}${pad}${f}`;
}
