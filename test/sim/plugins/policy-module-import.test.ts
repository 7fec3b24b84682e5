// Policy modules load from .ts, .mts, .js and .mjs files wherever they are: in a folder whose
// package.json says CommonJS, says ES module, or in none at all (tsx's tsImport compiles and
// scopes the loader to the import; a CommonJS-loaded module's exports are unwrapped). Run in a
// process of its own, as a user runs the CLI: inside vitest, vite would compile any of them.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run.ts';

const cli = (...args: string[]) =>
  promisify(execFile)(process.execPath, [join(ROOT, 'bin/mcp-faultsim.js'), ...args], { cwd: ROOT, encoding: 'utf8' }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

const root = mkdtempSync(join(tmpdir(), 'mcp-faultsim-policy-import-'));
const typed = (type: string | null): string => {
  const dir = join(root, type ?? 'no-package-json');
  mkdirSync(dir, { recursive: true });
  if (type) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `p-${type}`, type }));
  return dir;
};
const TS = (name: string) => `import { sep } from 'node:path';
const decide = (_input: unknown): { kind: 'reject' } => ({ kind: 'reject' });
export default { server: { reinit: { '${name}': { describe: 'rejects (path separator ' + sep + ')', decide } } } };
`;
const JS = (name: string) => TS(name).replace("(_input: unknown): { kind: 'reject' }", '(_input)');

describe('a policy module loads whatever the surrounding package.json says', () => {
  it('.ts, .mts, .js and .mjs, in folders of type commonjs, module and none', async () => {
    const files: string[] = [];
    const names: string[] = [];
    for (const type of ['commonjs', 'module', null]) {
      for (const ext of ['ts', 'mts', 'js', 'mjs']) {
        const name = `import-${ext}-${type ?? 'none'}`;
        const file = join(typed(type), `${name}.${ext}`);
        writeFileSync(file, ext.endsWith('ts') ? TS(name) : JS(name));
        files.push(file);
        names.push(name);
      }
    }
    const r = await cli('list', '--policies', files.join(','));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const [i, name] of names.entries()) {
      expect(r.stdout).toContain(`${name.padEnd(15)} rejects (path separator /) [from ${files[i]}]`);
    }
  });
});

describe('a module that cannot load', () => {
  it('is one line on stderr naming the module, exit 2', async () => {
    const file = join(typed('module'), 'broken.ts');
    writeFileSync(file, 'export default {;\n');
    const r = await cli('list', '--policies', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^mcp-faultsim: --policies ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot load it: `));
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
