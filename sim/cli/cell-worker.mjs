// Worker-thread entry of `compare`'s cell runner (cli/cell-thread.ts): register tsx's loader in this
// thread (as bin/mcp-faultsim.js does), then run the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./cell-worker.ts');
