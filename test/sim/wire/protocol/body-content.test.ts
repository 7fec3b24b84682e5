// A body described by what it is, not by its Content-Type alone (issue 37 item 9): a JSON error sent
// without a Content-Type is JSON with its code, a page labelled application/json is not JSON, and no
// body is no body; a body its label names truly needs no description.
import { describe, expect, it } from 'vitest';
import { bodyContent, mislabelledBody } from '../../../../sim/wire/protocol/body-content.ts';

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
