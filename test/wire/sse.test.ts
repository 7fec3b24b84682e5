// Watching an SSE body as it passes (wire/sse.ts `watchStream`): the bytes are the body's, each
// JSON-RPC response is seen as the reader reaches it, the end is told once, a cancel reaches the body.
import { describe, expect, it } from 'vitest';
import { encodeEvent, watchStream } from '../../wire/sse.ts';

const encoder = new TextEncoder();
const result = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });

/** A body whose chunks are given one by one, split mid-event; `cancelled` holds the reason it was cancelled with. */
function body(chunks: string[]) {
  const state = { cancelled: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
    cancel(reason) {
      state.cancelled = reason;
    },
  });
  return { stream, state };
}

describe('watchStream', () => {
  it('passes the bytes unchanged, sees each response as the reader reaches it, and tells the end once', async () => {
    const progress = encodeEvent({ event: 'message', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress' }) });
    const final = encodeEvent({ id: '1', event: 'message', data: result(4) });
    const chunks = [progress, final.slice(0, 10), final.slice(10)];
    const seen: unknown[] = [];
    let ends = 0;
    const reader = watchStream(
      body([...chunks]).stream,
      (m) => seen.push(m),
      () => ends++,
    ).getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (let i = 0; i < 2; i++) text += decoder.decode((await reader.read()).value);
    // The notification is no response, and the final event is still half-read.
    expect(seen).toEqual([]);
    text += decoder.decode((await reader.read()).value);
    expect(seen).toEqual([JSON.parse(result(4))]);
    expect(ends).toBe(0);
    expect((await reader.read()).done).toBe(true);
    expect(text).toBe(chunks.join(''));
    expect(ends).toBe(1);
  });

  it('cancels the body when its reader cancels, without telling an end', async () => {
    const { stream, state } = body([encodeEvent({ data: result(1) }), encodeEvent({ data: result(2) })]);
    const seen: unknown[] = [];
    let ends = 0;
    const reader = watchStream(
      stream,
      (m) => seen.push(m),
      () => ends++,
    ).getReader();
    await reader.read();
    await reader.cancel('gone');
    expect(state.cancelled).toBe('gone');
    expect(seen).toEqual([JSON.parse(result(1))]);
    expect(ends).toBe(0);
  });
});
