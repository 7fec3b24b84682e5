// Writing reports so that no reader ever sees half a file: each file is written beside its final
// name and renamed over it (atomic on one file system), and the counterexample folder is built
// whole before it replaces the old one.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let serial = 0;

export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${process.pid}-${serial++}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Replace the folder `dir` with `files` (name → text), all or nothing. */
export function replaceFolder(dir: string, files: ReadonlyMap<string, string>): void {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  const fresh = join(parent, `.${process.pid}-${serial++}.tmp-dir`);
  mkdirSync(fresh);
  try {
    for (const [name, text] of files) writeFileSync(join(fresh, name), text);
    const old = existsSync(dir) ? join(parent, `.${process.pid}-${serial++}.old-dir`) : null;
    if (old) renameSync(dir, old);
    renameSync(fresh, dir);
    if (old) rmSync(old, { recursive: true, force: true });
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    throw e;
  }
}
