// Writing reports so that no reader ever sees half a file or a mix of two runs: a single file is
// written beside its final name and renamed over it (atomic on one file system); a report set (the
// reports and their counterexample folder) is built whole in a folder beside the target and swapped
// in with two renames, so a reader sees the old set, the new set, or (for an instant) none.
// `checkOutDir` validates --out before any work is done, without recursive mkdir (which spins on
// procfs paths such as /proc/nope/out).
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from './errors.ts';

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

/** A file's text, or what writes it in pieces when its turn comes (a large report is never one
 *  string, and a thousand counterexample files are never in memory at once). */
export type FileContent = string | ((write: (piece: string) => void) => void);

/** Characters joined into one write. Small enough that the joined string is an ordinary young object:
 *  a string over 128 KB goes straight to V8's large-object space, which only a full collection frees. */
const WRITE_CHARS = 32 * 1024;

/** Write `content` to a new file at `path`, in pieces of WRITE_CHARS or so. */
function writeContent(path: string, content: FileContent): void {
  if (typeof content === 'string') return writeFileSync(path, content);
  const fd = openSync(path, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = () => {
      if (pending.length) writeSync(fd, pending.join(''));
      pending = [];
      size = 0;
    };
    content((piece) => {
      pending.push(piece);
      size += piece.length;
      if (size >= WRITE_CHARS) flush();
    });
    flush();
  } finally {
    closeSync(fd);
  }
}

/** Replace the folder `dir` with `files` (relative path → content; a path ending in `/` is a folder), all or nothing. Entries of the
 *  old folder that `keep` accepts are moved into the new one first (a user's own files beside the reports). */
export function replaceFolder(dir: string, files: ReadonlyMap<string, FileContent>, keep: (name: string) => boolean = () => false): void {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  const fresh = join(parent, `.${basename(dir)}.${process.pid}-${serial++}.tmp-dir`);
  mkdirSync(fresh);
  try {
    for (const [name, text] of files) {
      mkdirSync(dirname(join(fresh, name)), { recursive: true });
      if (name.endsWith('/'))
        mkdirSync(join(fresh, name), { recursive: true }); // a folder, even an empty one
      else writeContent(join(fresh, name), text);
    }
    const old = existsSync(dir) ? join(parent, `.${basename(dir)}.${process.pid}-${serial++}.old-dir`) : null;
    if (old)
      for (const name of readdirSync(dir)) if (keep(name) && !existsSync(join(fresh, name))) renameSync(join(dir, name), join(fresh, name));
    if (old) renameSync(dir, old);
    renameSync(fresh, dir);
    if (old) rmSync(old, { recursive: true, force: true });
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    throw e;
  }
}

function reason(e: unknown): string {
  const code = (e as { code?: string }).code;
  const why: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    ENOENT: 'cannot be created there',
    ENOTDIR: 'a part of the path is a file',
    EEXIST: 'a file of that name exists',
  };
  return (code && why[code]) ?? (e instanceof Error ? e.message : String(e));
}

/** --out must be a folder that is, or can be made, writable, and not the working folder or above it
 *  (the report set replaces the folder whole). Creates it; throws a UsageError naming the problem. */
export function checkOutDir(out: string, option = '--out'): void {
  if (out.trim() === '') throw new UsageError(`${option} must name a folder, not ''`);
  const target = resolve(out);
  const rel = relative(target, process.cwd());
  if (rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))) {
    throw new UsageError(`${option} '${out}' is the current folder or contains it: give the reports a folder of their own`);
  }
  const missing: string[] = [];
  let at = target;
  for (;;) {
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw new UsageError(`${option} '${out}': ${reason(e)}`);
      missing.unshift(at);
      const up = dirname(at);
      if (up === at) throw new UsageError(`${option} '${out}': no such place`);
      at = up;
      continue;
    }
    if (!isDir)
      throw new UsageError(`${option} '${out}': ${at === target ? 'is a file, not a folder' : `'${at}' is a file, not a folder`}`);
    break;
  }
  try {
    for (const dir of missing) mkdirSync(dir);
    // The set is built beside the folder and renamed into place: both must take a file.
    for (const dir of [target, dirname(target)]) {
      const probe = join(dir, `.${process.pid}-${serial++}.probe`);
      writeFileSync(probe, 'probe');
      rmSync(probe);
    }
  } catch (e) {
    throw new UsageError(`${option} '${out}': cannot write there (${reason(e)})`);
  }
}
