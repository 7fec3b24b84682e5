// Worker-thread entry that loads one policy module and says so (plugins/import-probe.ts): register
// tsx's loader in this thread, import the module, post 'loaded'. If the module loops, never settles
// its top-level await, or ends the thread, no 'loaded' arrives and the caller reports which.
import { workerData, parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
process.exit = (code) => {
  parentPort.postMessage({ exit: code ?? 0 });
  throw new Error(`process.exit(${code ?? ''}) called while loading`);
};
// A promise chain, not a top-level await: Node 24 warns on stderr ("Detected unsettled top-level
// await") when an entry module's own await never settles, which a never-settling user module causes.
import(workerData.url).then(
  () => parentPort.postMessage({ loaded: true }),
  (e) => parentPort.postMessage({ failed: e instanceof Error ? e.message.split('\n')[0] : String(e) }),
);
