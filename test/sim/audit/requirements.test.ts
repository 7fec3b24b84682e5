// The spec requirements as data: every entry is well-formed, quotes a file it names a source for,
// and its level word appears in the quoted sentence (so a paraphrase or a wrong level is caught).
import { describe, expect, it } from 'vitest';
import { quoteOf, REQUIREMENTS, requirementById, requirementUrl, requirementsOf, SPEC_SOURCES } from '../../../sim/audit/requirements.ts';

describe('the spec requirements', () => {
  it('have unique ids prefixed by their revision, and a commit for every quoted file', () => {
    const ids = REQUIREMENTS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of REQUIREMENTS) {
      expect(r.id.startsWith(`${r.revision}/`), r.id).toBe(true);
      expect(r.section.file.startsWith(`${r.revision}/`), r.id).toBe(true);
      expect(SPEC_SOURCES.files[r.section.file], r.section.file).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('quote a sentence that carries the level it is filed under', () => {
    for (const r of REQUIREMENTS) {
      if (r.level === 'unspecified') continue;
      expect(r.text, r.id).toContain(r.level);
      expect(r.text, r.id).not.toContain('**');
    }
  });

  it('cover the server requirements issue 30 names and the client ones issue 31 needs', () => {
    for (const id of [
      '2025-11-25/unknown-session-404',
      '2025-11-25/missing-session-id-400',
      '2025-11-25/request-content-type',
      '2025-11-25/reinit-live-session',
      '2026-07-28/protocol-version-missing-400',
      '2026-07-28/protocol-version-mismatch-400',
      '2026-07-28/get-405',
      '2026-07-28/close-is-cancellation',
      '2026-07-28/server-discover',
      '2025-11-25/client-new-session-after-404',
      '2026-07-28/client-reissue-new-id',
      '2025-11-25/client-protocol-version-header',
      '2025-11-25/client-resume-last-event-id',
    ])
      expect(requirementById(id), id).toBeDefined();
    expect(requirementsOf('unknown-session').map((r) => r.id)).toEqual(['2025-11-25/unknown-session-404']);
    expect(requirementsOf('unknown-session', 'client').map((r) => r.id)).toContain('2025-11-25/client-new-session-after-404');
  });

  it('link to the published section and quote in one line', () => {
    const r = requirementById('2025-11-25/unknown-session-404')!;
    expect(requirementUrl(r)).toBe('https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management');
    expect(quoteOf(r)).toMatch(/^2025-11-25 basic\/transports\.mdx § Session Management \(MUST\): "The server MAY terminate/);
  });
});
