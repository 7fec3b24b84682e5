// The server side of a wire run, as its spec names it: the model behind HTTP, an SDK server
// in-process, or a loopback server's adapter (armed on that endpoint's watchdog).
import { NO_EXTENSIONS, type ModelExtensions } from '../../models/registry.ts';
import { ModelServerHttp } from './model-server-http.ts';
import type { Recorder } from './recorder.ts';
import { SdkServer } from './sdk-server.ts';
import { Sdk2Server } from './sdk2-server.ts';
import type { ServerAdapter } from './server-adapter.ts';
import type { WireSetup } from './setup.ts';

export function serverFor(setup: WireSetup, recorder: Recorder, ext: ModelExtensions = NO_EXTENSIONS): ServerAdapter {
  const s = setup.server;
  if (s.kind === 'model') return new ModelServerHttp(s.policy, recorder, ext);
  if (s.kind === 'sdk') return new SdkServer(s.preset);
  if (s.kind === 'sdk2') return new Sdk2Server(s.preset, s.protocol);
  return s.endpoint.adapter(recorder.time);
}
