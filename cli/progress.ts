// A progress bar on stderr, only when stderr is a terminal and not --quiet: a log or a pipe gets
// nothing, so output stays byte-identical between runs.
export interface Progress {
  update(done: number, total: number, label?: string): void;
  done(): void;
}

export function progressBar(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled || !stream.isTTY) return { update() {}, done() {} };
  let last = '';
  return {
    update(done, total, label = '') {
      const width = 30;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`.slice(0, (stream.columns ?? 80) - 1);
      if (line !== last) stream.write(`\r${line}\x1b[K`);
      last = line;
    },
    done() {
      if (last) stream.write('\r\x1b[K');
    },
  };
}
