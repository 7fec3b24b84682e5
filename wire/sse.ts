// Server-sent events on real bodies: encoding (the model server's streams), parsing (with
// eventsource-parser, never by hand), and the proxy's `stream-cut`, which ends a real
// `text/event-stream` body before its final event.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface WireEvent {
  id?: string;
  event?: string;
  data: string;
}

export function encodeEvent(e: WireEvent): string {
  return `${e.id !== undefined ? `id: ${e.id}\n` : ''}${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`;
}

const encoder = new TextEncoder();

/** A body of SSE events; `open` leaves the stream open after them (a stream that carries nothing more). */
export function sseBody(events: readonly WireEvent[], open: boolean, onCancel?: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const e of events) controller.enqueue(encoder.encode(encodeEvent(e)));
      if (!open) controller.close();
    },
    cancel() {
      onCancel?.();
    },
  });
}

/** Read an SSE body to its end and return its events. */
export async function readEvents(body: ReadableStream<Uint8Array> | null): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  if (!body) return events;
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  parser.feed(decoder.decode());
  return events;
}

/** Does this event carry a JSON-RPC response (a result or an error for a request id)? */
export function carriesResponse(e: EventSourceMessage): unknown | undefined {
  if (e.event && e.event !== 'message') return undefined;
  try {
    const m = JSON.parse(e.data);
    return m && typeof m === 'object' && 'id' in m && ('result' in m || 'error' in m) ? m : undefined;
  } catch {
    return undefined;
  }
}

export interface CutReport {
  /** Events that passed before the cut. */
  passed: number;
  /** The JSON-RPC response the cut kept from the client, when there was one. */
  dropped: unknown | undefined;
}

/**
 * `stream-cut` on a real body: events pass one behind (each is held until the next arrives), so
 * the stream can end before its final event without knowing in advance which one that is. It ends
 * at the first event carrying a JSON-RPC response (the final event of a request's stream), or, on
 * a stream with none, by dropping the last event: the model's cut (models/network.ts), streamed.
 */
export function cutStream(body: ReadableStream<Uint8Array>, onCut: (r: CutReport) => void): ReadableStream<Uint8Array> {
  let held: EventSourceMessage | null = null;
  let passed = 0;
  let finished = false;
  const upstream = body.getReader();
  const decoder = new TextDecoder();
  let pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => pending.push(e) });
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, dropped: unknown | undefined) => {
    if (finished) return;
    finished = true;
    onCut({ passed, dropped });
    controller.close();
    upstream.cancel().catch(() => {});
  };
  return new ReadableStream({
    async pull(controller) {
      while (!finished) {
        const { value, done } = await upstream.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return finish(controller, undefined);
        parser.feed(decoder.decode(value, { stream: true }));
        const events = pending;
        pending = [];
        for (const e of events) {
          const response = carriesResponse(e);
          if (response !== undefined) {
            if (held) controller.enqueue(encoder.encode(encodeEvent({ id: held.id, event: held.event, data: held.data }))), passed++;
            return finish(controller, response);
          }
          if (held) {
            controller.enqueue(encoder.encode(encodeEvent({ id: held.id, event: held.event, data: held.data })));
            passed++;
          }
          held = e;
        }
        if (events.length > 0) return;
      }
    },
    cancel() {
      finished = true;
      upstream.cancel().catch(() => {});
    },
  });
}

/** Watch an SSE body as it passes, calling `onResponse` for each JSON-RPC response it carries. */
export function watchStream(body: ReadableStream<Uint8Array>, onResponse: (m: unknown) => void, onEnd: () => void): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (e) => {
      const m = carriesResponse(e);
      if (m !== undefined) onResponse(m);
    },
  });
  let ended = false;
  const end = () => {
    if (!ended) (ended = true), onEnd();
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        controller.enqueue(chunk);
      },
      flush() {
        end();
      },
    }),
  );
}
