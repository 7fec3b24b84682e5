// A body described by what it is, not by its Content-Type alone (issue 37 item 9): a JSON error sent
// without a Content-Type is JSON with its code, a page labelled application/json is not JSON, and no
// body is no body; a body its label names truly needs no description. A request's body read by
// bodyText is the text Request.text() reads, chunk boundaries, BOMs and bad bytes included.
import { describe, expect, it } from 'vitest';
import { bodyContent, bodyText, mislabelledBody } from '../../../../sim/wire/protocol/body-content.ts';

const error = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });

describe('bodies described by what they are', () => {
  it('a JSON error without a Content-Type, or under another type, is JSON with its JSON-RPC code', () => {
    expect(mislabelledBody(null, error)).toBe('JSON (JSON-RPC -32001) sent without a Content-Type');
    expect(mislabelledBody('text/plain; charset=utf-8', error)).toBe('JSON (JSON-RPC -32001) sent as text/plain');
    expect(mislabelledBody(null, '{"error":"not found"}')).toBe('JSON sent without a Content-Type');
  });

  it('a body labelled JSON that is not, a text body, and an empty body labelled JSON', () => {
    expect(mislabelledBody('application/json', '<html>502</html>')).toBe('not JSON (16 bytes: "<html>502</html>")');
    expect(mislabelledBody('text/html', '<html><body>Bad gateway</body></html>')).toBe(
      'text, 37 bytes: "<html><body>Bad gateway</body></html>"',
    );
    expect(mislabelledBody('application/json', '')).toBe('no body (labelled application/json)');
  });

  it('a true label needs no description; every body has one', () => {
    expect(mislabelledBody('application/json', error)).toBeUndefined();
    expect(mislabelledBody(null, '')).toBeUndefined();
    expect(mislabelledBody('text/event-stream', 'data: x\n\n')).toBeUndefined();
    expect(bodyContent('application/json', error)).toBe('json');
    expect(bodyContent(null, '')).toBe('empty');
    expect(bodyContent(null, error)).toBe('JSON (JSON-RPC -32001) sent without a Content-Type');
  });
});

describe('bodyText reads what Request.text() reads', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const bytes = (...b: number[]) => new Uint8Array(b);
  const euro = utf8('€');
  const bodies: Record<string, Uint8Array[]> = {
    'no chunk': [],
    'one chunk': [utf8('{"jsonrpc":"2.0","id":1,"method":"tools/call"}')],
    'an empty chunk first': [new Uint8Array(0), utf8('{"a":1}')],
    'a leading BOM': [bytes(0xef, 0xbb, 0xbf, 0x41)],
    'a BOM split across chunks': [bytes(0xef, 0xbb), bytes(0xbf, 0x41)],
    'a BOM after the first chunk (kept)': [utf8('a'), bytes(0xef, 0xbb, 0xbf), utf8('b')],
    'a character split across chunks': [euro.slice(0, 1), euro.slice(1), utf8('x')],
    'a character cut off at the end': [utf8('ab'), euro.slice(0, 2)],
    'a bad byte': [bytes(0xff, 0x41)],
  };
  const stream = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });
  for (const [name, chunks] of Object.entries(bodies)) {
    it(name, async () => {
      const expected = await new Request('http://x.test/', { method: 'POST', body: stream(chunks), duplex: 'half' } as RequestInit).text();
      expect(await bodyText(stream(chunks))).toBe(expected);
    });
  }
  it('no body is the empty text', async () => {
    expect(await bodyText(null)).toBe('');
  });
});
