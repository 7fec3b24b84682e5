import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GC, stageOf, type Frame } from './stage-table.ts';
const dir = process.argv[2]!;
const into = new Map<string, number>();
for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  p.samples.forEach((id: number, i: number) => {
    const leaf = byId.get(id).callFrame.functionName;
    let s: string | null;
    if (leaf === '(idle)') s = null; else if (leaf === '(garbage collector)') s = GC; else {
      const frames: Frame[] = []; for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at).callFrame);
      s = stageOf(frames);
    }
    if (s !== null) into.set(s, (into.get(s) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
}
for (const [k, v] of [...into].sort((a, b) => b[1] - a[1])) console.log((v / 1e6).toFixed(2).padStart(7), 's', k);
