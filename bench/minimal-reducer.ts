// The benchmark's floor: the record-000 cell (server reinit=honor-last, streaming=negotiated; client
// reconnect=replay-mutable, accept=always, parser=pinned) as one mutable record stepped by a plain
// switch, independent of the world, the statecharts and the history. It knows only what that cell
// does on a sequential workload of tools/calls under http-502 and config-reset faults, and records
// nothing but each call's end; the engine's time above this is the price of its generality. A test
// requires the same ends as the world on the cell's plans (test/bench/minimal-reducer.test.ts).
import type { FaultPlan } from '../sim/core/plan.ts';
import type { Workload } from '../sim/core/workload.ts';

export interface MinimalEnd {
  callId: number;
  attempts: number;
  req: number;
  /** A result with content, a result with none (the silent empty answer), or an error. */
  end: 'result' | 'empty' | 'error';
}

const LATENCY = 5;
type Kind = 0 | 1 | 2 | 3; // the next event: a request at the server, a response at the client, a call issued, none
const AT_SERVER = 0;
const AT_CLIENT = 1;
const CALL = 2;
const NONE = 3;
type Rpc = 'initialize' | 'initialized' | 'call';

/** One session of the cell, run to its end; `events` counts what it stepped. */
export class MinimalSession {
  events = 0;
  readonly ends: MinimalEnd[] = [];
  // The client.
  private phase: 'connect' | 'replay' | 'ready' = 'connect';
  private streamingConfig = true;
  private advertisesStreaming = true;
  private expectsSse = false;
  private callId = -1;
  private attempt = 0;
  // The server: one session at most in this cell, and whether it answers calls as a stream.
  private serverStreams = false;
  // The network: one exchange in flight at a time on a sequential workload.
  private now = 0;
  private kind: Kind = NONE;
  private at = 0;
  private rpc: Rpc = 'initialize';
  private req = -1;
  private status = 0;
  private sse = false;
  private readonly fail502: boolean[] = [];
  private readonly resetBefore: boolean[] = [];

  constructor(
    private readonly workload: Workload,
    plan: FaultPlan,
  ) {
    for (const f of plan) {
      if (f.fault === 'http-502') this.fail502[f.at] = true;
      else if (f.fault === 'config-reset') this.resetBefore[f.at] = true;
      else throw new Error(`the minimal reducer knows http-502 and config-reset, not ${f.fault}`);
    }
  }

  run(): MinimalEnd[] {
    this.send('initialize');
    this.callId = 0;
    while (this.kind !== NONE) {
      this.events++;
      this.now = this.at;
      if (this.kind === AT_SERVER) this.serve();
      else if (this.kind === AT_CLIENT) this.receive();
      else this.issue();
    }
    return this.ends;
  }

  private send(rpc: Rpc): void {
    const req = ++this.req;
    // The request is built first, then a config reset planned at it hits the client.
    this.advertisesStreaming = this.streamingConfig;
    if (this.resetBefore[req]) this.streamingConfig = false;
    this.rpc = rpc;
    if (this.fail502[req]) this.schedule(AT_CLIENT, 2 * LATENCY, 502, false);
    else this.schedule(AT_SERVER, LATENCY, 0, false);
  }

  private schedule(kind: Kind, delay: number, status: number, sse: boolean): void {
    this.kind = kind;
    this.at = this.now + delay;
    this.status = status;
    this.sse = sse;
  }

  private serve(): void {
    if (this.rpc === 'initialize') {
      // A new handshake opens the session; a replay under honor-last takes the caps it carries.
      this.serverStreams = this.advertisesStreaming;
      this.schedule(AT_CLIENT, LATENCY, 200, false);
    } else if (this.rpc === 'initialized') this.schedule(AT_CLIENT, LATENCY, 202, false);
    else this.schedule(AT_CLIENT, LATENCY, 200, this.serverStreams);
  }

  private receive(): void {
    const failed = this.status === 502;
    if (this.rpc === 'initialize') {
      if (failed) return this.send('initialize');
      if (this.phase === 'connect') this.expectsSse = this.serverStreams; // the pinned parser
      return this.send('initialized');
    }
    if (this.rpc === 'initialized') {
      if (failed) return this.send('initialize');
      this.phase = 'ready';
      return this.sendCall();
    }
    if (failed) {
      // replay-mutable: the same session again, with the client's current config.
      this.phase = 'replay';
      return this.send('initialize');
    }
    // accept=always reads a JSON answer the parser does not expect as a result with no content.
    this.ends.push({ callId: this.callId, attempts: this.attempt, req: this.req, end: this.sse === this.expectsSse ? 'result' : 'empty' });
    this.attempt = 0;
    this.callId++;
    this.kind = this.callId < this.workload.length ? CALL : NONE;
    this.at = this.now;
  }

  /** The next call of the workload; before the handshake is done it waits for it. */
  private issue(): void {
    if (this.phase === 'ready') this.sendCall();
  }

  private sendCall(): void {
    this.attempt++;
    this.send('call');
  }
}
