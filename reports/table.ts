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

/** Words that join what follows them ("with client.accept=always"): never left alone at a line's end. */
const JOINERS = new Set(['with', 'and', 'or', 'of', 'by', 'at', 'on', 'in', 'to', 'from', 'as', 'the', 'a', '+', '·']);

/** Where to cut `word` to fit `room` characters: after the last of `marks` that fits
 *  (`server.streaming=` / `accept-header`), or 0 where none does. */
function cutAt(word: string, room: number, marks: readonly string[] = ['=', '.', '-', '+', ',']): number {
  if (room < 1) return 0;
  const head = word.slice(0, room);
  const at = Math.max(...marks.map((c) => head.lastIndexOf(c)));
  return at > 0 ? at + 1 : 0;
}

/** Wrap `text` between words into lines of at most `width` characters. A word longer than a line is
 *  cut after a `=` (filling the line it starts on), else a `.`, `-`, `+` or `,`, else at the width; a
 *  joining word ("with") goes down with the word it joins rather than end a line, so that no line reads
 *  only "with" (where the two do not fit a line, the word is cut after a `=` or `.` to follow it). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const fill = (piece: string) => {
    lines.push(line ? `${line} ${piece}` : piece);
    line = '';
  };
  for (let word of text.split(' ')) {
    for (;;) {
      const room = line ? width - line.length - 1 : width;
      if (word.length <= room) {
        line = line ? `${line} ${word}` : word;
        break;
      }
      const words = line.split(' ');
      const tail = words[words.length - 1]!;
      const onlyJoiner = line !== '' && words.length === 1 && JOINERS.has(tail);
      if (words.length > 1 && JOINERS.has(tail)) {
        // A joiner that would end the line goes down with the word it joins.
        lines.push(words.slice(0, -1).join(' '));
        line = tail;
        continue;
      }
      const cut = !line || onlyJoiner ? cutAt(word, room, ['=']) || cutAt(word, room) : word.length > width ? cutAt(word, room, ['=']) : 0;
      if (cut > 0) {
        fill(word.slice(0, cut));
        word = word.slice(cut);
      } else if (!line) {
        fill(word.slice(0, width));
        word = word.slice(width);
      } else if (onlyJoiner) {
        // Nowhere to cut the word: the joiner goes back up where it fits, else keeps its own line.
        const up = lines.length ? `${lines[lines.length - 1]} ${tail}` : null;
        if (up && up.length <= width) lines[lines.length - 1] = up;
        else lines.push(tail);
        line = '';
      } else {
        lines.push(line);
        line = '';
      }
    }
  }
  if (line || lines.length === 0) lines.push(line);
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
