import { runWire } from './wire/world.ts';
import { call } from './core/workload.ts';
import { combination } from './models/policies.ts';
const cmd = process.argv[2]!;
const plan = JSON.parse(process.argv[3] ?? '[]');
const h = await runWire({ client: { kind: 'cmd', command: cmd }, server: { kind: 'model', policy: combination({}).server } }, { workload: [call(true), call(false)], plan });
for (const e of h.entries) console.log(JSON.stringify(e).slice(0, 220));
