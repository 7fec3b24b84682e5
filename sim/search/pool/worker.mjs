// Worker-thread entry of the pool (search/pool/thread.ts): register tsx's loader in this thread (as
// bin/mcp-faultsim.js does for the CLI), then run the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
