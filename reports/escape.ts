// Escaping every text that reaches a report: Markdown (a table cell or a line) and HTML.

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
