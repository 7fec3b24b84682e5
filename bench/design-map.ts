// The structure section of docs/design.md, generated: the stage diagram from the dependency rules
// (.dependency-cruiser.cjs `LAYERS`, the same list `npm run check:deps` enforces) and every stage's
// files as they are in git. `npm run design:docs` rewrites it; test/docs/design-map.test.ts fails when
// the page and the tree part ways, so the map can never name a file that moved or miss a new one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

interface Layer {
  name: string;
  may: string[];
  types?: string[];
}

/** The stage list as the dependency rules state it (evaluated from the config's own text). */
export function layers(root: string): Layer[] {
  const text = readFileSync(`${root}/.dependency-cruiser.cjs`, 'utf8');
  const cut = text.indexOf('const STAGES');
  // The list is plain data; evaluate it alone, without the rules that follow it.
  return new Function(`${text.slice(0, cut)}\nreturn LAYERS;`)() as Layer[];
}

/** Edges a → b of the runtime `may` relation with the transitive ones dropped, so the picture stays legible. */
function reduced(ls: Layer[]): [string, string][] {
  const may = new Map(ls.map((l) => [l.name, new Set(l.may)]));
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    for (const next of may.get(from) ?? []) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, to, seen)) return true;
      }
    }
    return false;
  };
  const out: [string, string][] = [];
  for (const l of ls) for (const b of l.may) if (!l.may.some((c) => c !== b && reaches(c, b))) out.push([l.name, b]);
  return out;
}

const id = (name: string) => name.replace(/[^a-z]/g, '_');

/** A Mermaid flowchart: each stage over the ones it imports (types-only imports dashed). */
export function stageDiagram(ls: Layer[]): string {
  const lines = ['```mermaid', 'flowchart BT'];
  for (const l of ls) lines.push(`  ${id(l.name)}["${l.name}/"]`);
  for (const [a, b] of reduced(ls)) lines.push(`  ${id(a)} --> ${id(b)}`);
  for (const l of ls) for (const t of l.types ?? []) lines.push(`  ${id(l.name)} -. types .-> ${id(t)}`);
  lines.push('```');
  return lines.join('\n');
}

/** Every tracked source file of each stage's folders, one line per folder. */
export function fileMap(root: string, ls: Layer[]): string {
  const files = execFileSync('git', ['-C', root, 'ls-files', '*.ts'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.endsWith('.d.ts'));
  const folders = new Map<string, string[]>();
  for (const f of files) {
    const stage = ls.find((l) => f.startsWith(`${l.name}/`));
    if (!stage) continue;
    const dir = f.slice(0, f.lastIndexOf('/'));
    const list = folders.get(dir) ?? [];
    list.push(f.slice(dir.length + 1));
    folders.set(dir, list);
  }
  const order = (dir: string) => ls.findIndex((l) => dir === l.name || dir.startsWith(`${l.name}/`));
  const dirs = [...folders.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return dirs.map((d) => `- \`${d}/\`: ${folders.get(d)!.sort().join(', ')}`).join('\n');
}

export function designSection(root: string): string {
  const ls = layers(root);
  return [
    'The stages, each over the stages it imports (generated from `.dependency-cruiser.cjs` by `npm run design:docs`;',
    'an arrow implied by two others is left out; dashed: types only):',
    '',
    stageDiagram(ls),
    '',
    "Every stage's files, lowest stage first:",
    '',
    fileMap(root, ls),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { replaceBlock } = await import('./docs-block.ts');
  const root = new URL('..', import.meta.url).pathname;
  replaceBlock(`${root}docs/design.md`, 'design-map', designSection(root));
  process.stdout.write('docs/design.md: the design-map section rewritten\n');
}
