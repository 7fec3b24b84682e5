// Watching an SSE body as it passes (wire/protocol/sse.ts `watchStream`): the bytes are the body's, each
// JSON-RPC response is seen as the reader reaches it, the end is told once, a cancel reaches the body;
// its chunk decoder (`chunkDecoder`) gives what one streaming TextDecoder gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkDecoder, encodeEvent, watchStream } from '../../../../sim/wire/protocol/sse.ts';

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

describe('chunkDecoder', () => {
  /** Bytes as chunks: random bytes (invalid UTF-8 too), or UTF-8 text (BOMs, characters of 1–4 bytes) cut anywhere. */
  const chunked = fc.oneof(
    fc.array(fc.uint8Array({ maxLength: 12 }), { maxLength: 6 }),
    fc
      .tuple(
        fc.array(fc.constantFrom('a', '\n', '\uFEFF', 'é', '€', '😀', 'data: {"id":1}\n\n'), { maxLength: 12 }),
        fc.array(fc.nat(60), { maxLength: 5 }),
      )
      .map(([parts, cuts]) => {
        const bytes = encoder.encode(parts.join(''));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        return [0, ...at].map((from, i) => bytes.slice(from, at[i] ?? bytes.length));
      }),
  );

  it('decodes a body chunk by chunk exactly as one streaming TextDecoder does (BOM, split and invalid characters)', () => {
    let split = 0;
    let shared = 0;
    fc.assert(
      fc.property(chunked, (chunks) => {
        const reference = new TextDecoder();
        const decode = chunkDecoder();
        for (const c of chunks) {
          if (c.length > 0 && c[c.length - 1]! >= 0x80) split++;
          else shared++;
          expect(decode(c)).toBe(reference.decode(c, { stream: true }));
        }
      }),
      { numRuns: 3000 },
    );
    // Both ways were taken: chunks decoded by the shared decoders and chunks that end inside a character.
    expect(split).toBeGreaterThan(100);
    expect(shared).toBeGreaterThan(100);
  });
});
