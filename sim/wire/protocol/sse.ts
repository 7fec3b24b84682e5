// Server-sent events on real bodies: encoding (the model server's streams), parsing (with
// eventsource-parser, never by hand), and gathering a stream up to its final event for the fault
// rules (models/fault-rules.ts: `stream-cut` ends it before that event).
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

/**
 * An SSE stream read up to its final event: the first one carrying a JSON-RPC response (a request's
 * stream ends there), or the stream's end. The fault rules then see these events (as the model's
 * complete stream); `replay` passes on the events they kept and, unless the stream was cut, the rest
 * of the real stream as it comes. `onResponse` is told of each JSON-RPC response read, here or later.
 */
export interface Gathered {
  events: EventSourceMessage[];
  replay(events: readonly WireEvent[], complete: boolean): ReadableStream<Uint8Array>;
  cancel(): void;
}

export async function gatherStream(
  body: ReadableStream<Uint8Array>,
  onResponse: (m: unknown) => void,
  idle: () => Promise<void>,
): Promise<Gathered> {
  const events: EventSourceMessage[] = [];
  let after: EventSourceMessage[] = [];
  let final = false;
  let emit: ((e: EventSourceMessage) => void) | null = null;
  const parser = createParser({
    onEvent: (e) => {
      const m = carriesResponse(e);
      if (m !== undefined) onResponse(m);
      if (emit) emit(e);
      else if (final) after.push(e);
      else {
        events.push(e);
        if (m !== undefined) final = true;
      }
    },
  });
  const decoder = new TextDecoder();
  const upstream = body.getReader();
  let ended = false;
  let reading: Promise<void> | null = null;
  const read = (): Promise<void> =>
    (reading ??= upstream.read().then(
      ({ value, done }) => {
        reading = null;
        if (done) (ended = true), parser.feed(decoder.decode());
        else parser.feed(decoder.decode(value, { stream: true }));
      },
      () => {
        reading = null;
        ended = true;
      },
    ));
  // A stream that goes quiet without its final event (a standalone GET stream, a call never
  // answered) is taken as it stands once nothing else moves: later events follow the view's.
  let quiet = false;
  const quieted = idle().then(() => void (quiet = true));
  while (!final && !ended && !quiet) await Promise.race([read(), quieted]);
  final = true;
  const cancel = () => void upstream.cancel().catch(() => {});
  return {
    events,
    cancel,
    replay(kept, complete) {
      return new ReadableStream({
        start(controller) {
          for (const e of kept) controller.enqueue(encoder.encode(encodeEvent(e)));
          if (!complete) return (cancel(), controller.close());
          for (const e of after) controller.enqueue(encoder.encode(encodeEvent(e)));
          after = [];
          if (ended) return controller.close();
          emit = (e) => controller.enqueue(encoder.encode(encodeEvent(e)));
        },
        async pull(controller) {
          if (!ended) await read();
          if (ended) controller.close();
        },
        cancel,
      });
    },
  };
}

/** A chunk of a longer body: the decoder keeps a character split across chunks (one options object for all). */
const STREAMING = { stream: true } as const;
/** Shared decoders for a chunk that ends on a whole character: the first of a body drops a leading BOM, later ones
 *  keep it, as one streaming decoder would. */
const FIRST_CHUNK = new TextDecoder();
const LATER_CHUNK = new TextDecoder('utf-8', { ignoreBOM: true });

/** A body's chunks decoded as one streaming TextDecoder would. A chunk that ends in an ASCII byte leaves no
 *  character half-read, so it is decoded by a shared decoder (an SSE chunk ends with a line break); the body's
 *  own streaming decoder (an ICU converter, costly to make on every response) is made only once a chunk ends
 *  inside a character, and decodes every chunk after it. */
export function chunkDecoder(): (bytes: Uint8Array) => string {
  let own: InstanceType<typeof TextDecoder> | null = null;
  let first = true;
  return (bytes) => {
    if (own === null && (bytes.length === 0 || bytes[bytes.length - 1]! < 0x80)) {
      if (bytes.length === 0) return '';
      const text = (first ? FIRST_CHUNK : LATER_CHUNK).decode(bytes);
      first = false;
      return text;
    }
    if (own === null) own = new TextDecoder('utf-8', { ignoreBOM: !first });
    return own.decode(bytes, STREAMING);
  };
}

/** Watch an SSE body as it passes, calling `onResponse` for each JSON-RPC response it carries.
 *  One stream pulling from the body's reader: a TransformStream would add two streams and a pipe per response. */
export function watchStream(
  body: ReadableStream<Uint8Array>,
  onResponse: (m: unknown) => void,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const decode = chunkDecoder();
  const parser = createParser({
    onEvent: (e) => {
      const m = carriesResponse(e);
      if (m !== undefined) onResponse(m);
    },
  });
  const upstream = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      // A chained read, not an async function: one promise fewer for each chunk.
      pull(controller) {
        return upstream.read().then(({ value, done }) => {
          if (done) {
            onEnd();
            controller.close();
            return;
          }
          parser.feed(decode(value));
          controller.enqueue(value);
        });
      },
      cancel(reason) {
        return upstream.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
