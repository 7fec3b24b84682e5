// The server side of a wire run, as its spec names it: the model behind HTTP, an SDK server
// in-process, or a loopback server's adapter (armed on that endpoint's watchdog).
import type { PolicyAdditions } from '../../models/additions.ts';
import { ModelServerHttp } from './peers/model-server-http.ts';
import type { Recorder } from './protocol/recorder.ts';
import { SdkServer } from './peers/sdk-server.ts';
import { Sdk2Server } from './peers/sdk2-server.ts';
import type { ServerAdapter } from './net/server-adapter.ts';
import type { WireSetup } from './setup.ts';

export function serverFor(setup: WireSetup, recorder: Recorder, additions: PolicyAdditions): ServerAdapter {
  const s = setup.server;
  if (s.kind === 'model') return new ModelServerHttp(s.policy, recorder, additions);
  if (s.kind === 'sdk') return new SdkServer(s.preset);
  if (s.kind === 'sdk2') return new Sdk2Server(s.preset, s.protocol);
  return s.endpoint.adapter(recorder.time);
}
