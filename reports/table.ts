// Plain-text tables for the terminal: columns padded to their widest cell. Given a width, one
// column (the long names) is folded onto continuation lines so that the table fits.
export interface TableFit {
  /** The widest a line may be. */
  width: number;
  /** The column that folds (word-wrapped) when the table is too wide. */
  fold: number;
  /** The fold column never gets narrower than this. */
  minimum?: number;
}

/** Wrap `text` into lines of at most `width` characters, breaking before a ` · ` where it can, else
 *  between words (a longer word is cut). */
export function wrap(text: string, width: number): string[] {
  const parts = text.split(' · ');
  if (parts.length === 1) return wrapWords(text, width);
  const lines: string[] = [];
  for (const [i, part] of parts.entries()) {
    const piece = i === 0 ? part : `· ${part}`;
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + piece.length <= width) lines[lines.length - 1] = `${last} ${piece}`;
    else lines.push(...wrapWords(piece, width));
  }
  return lines;
}

/** Wrap `text` between words into lines of at most `width` characters (a longer word is cut). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    let w = word;
    while (w.length > width) {
      if (line) lines.push(line);
      lines.push(w.slice(0, width));
      w = w.slice(width);
      line = '';
    }
    if (!line) line = w;
    else if (line.length + 1 + w.length <= width) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  lines.push(line);
  return lines;
}

export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ('l' | 'r')[] = [],
  fit?: TableFit,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  if (fit) {
    const total = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
    const over = total - fit.width;
    if (over > 0) widths[fit.fold] = Math.max(fit.minimum ?? 12, header[fit.fold]!.length, widths[fit.fold]! - over);
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (align[i] === 'r' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const folded = (cells: readonly string[]): string[] => {
    if (!fit || (cells[fit.fold] ?? '').length <= widths[fit.fold]!) return [line(cells)];
    const parts = wrap(cells[fit.fold]!, widths[fit.fold]!);
    return parts.map((part, k) => line(cells.map((c, i) => (i === fit.fold ? part : k === 0 ? c : ''))));
  };
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.flatMap(folded)].join('\n');
}
