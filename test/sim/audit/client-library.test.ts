// The library verdict and the spec marks, on three small hand-written clients of known behaviour
// (test/fixtures/clients/fake-client.mjs), each its own process through the loopback proxy to the
// model server, on the wall clock with a 1 s request timeout (≈ 30 s in all, most of it the hang).
import { describe, expect, it } from 'vitest';
import { runClientAudit } from '../../../sim/audit/client/runner.ts';
import { combination } from '../../../models/policies.ts';
import { liveGroups } from '../../../sim/wire/process/process-groups.ts';
import { NO_ADDITIONS } from '../../../models/additions.ts';

const fake = (mode: string) => `node test/fixtures/clients/fake-client.mjs ${mode}`;
const model = (protocol: string) => ({
  kind: 'model' as const,
  policy: combination({ server: { streaming: 'accept-header', protocol } as never }, NO_ADDITIONS).server,
});

async function audit(mode: string, protocol: string, revision: '2025-11-25' | '2026-07-28', only: string[]) {
  const a = await runClientAudit(model(protocol), { command: fake(mode), sidesArgs: '', only, revision, timeoutMs: 1000 });
  expect(liveGroups()).toEqual([]);
  return new Map(a.scenarios.map((s) => [s.name, s]));
}

const markOf = (s: { library?: { marks: { requirement: string; status: string; detail: string }[] } }, id: string) =>
  s.library?.marks.find((m) => m.requirement === id);

describe('the library verdict, with the agent loop off', () => {
  it('a client that re-issues a cut request with a new id: re-issued, the 2026-07-28 MUST met', async () => {
    const s = (await audit('reissue', '2026-07-28', '2026-07-28', ['cut-reissue-once'])).get('cut-reissue-once')!;
    expect(s.revision).toBe('2026-07-28');
    expect(s.verdict).toBe('pass');
    expect(s.library).toMatchObject({ behaviour: 're-issued', passed: true });
    const m = markOf(s, '2026-07-28/client-reissue-new-id')!;
    expect(m.status).toBe('met');
    expect(m.detail).toMatch(/^cut req \d+ tools\/call id 0; re-issued as req \d+ tools\/call id 1$/);
    expect(markOf(s, '2026-07-28/client-protocol-version-header')!.status).toBe('met');
  }, 60_000);

  it('a client that never settles after a cut stream: never settled (a hang), silent under the agent loop, the MUST broken', async () => {
    const s = (await audit('hang', '2026-07-28', '2026-07-28', ['cut-reissue-once'])).get('cut-reissue-once')!;
    expect(s.verdict).toBe('silent');
    expect(s.why).toMatch(/^no-silent-hang/);
    expect(s.library).toMatchObject({ behaviour: 'never settled', passed: false });
    // A library with a default longer than the audit's bound also reads so: the why says what ended it.
    expect(s.library!.why).toMatch(/no timeout of its own fired before the audit's bound ended the run; its declared default timeout: /);
    expect(markOf(s, '2026-07-28/client-reissue-new-id')).toMatchObject({
      status: 'broken',
      detail: expect.stringMatching(/never re-issued$/),
    });
  }, 60_000);

  it('a client that keeps its session id after a 404: the agent loop hides it (pass), the library breaks the MUST', async () => {
    const s = (await audit('stale-session', '2025-11-25', '2025-11-25', ['unknown-session'])).get('unknown-session')!;
    expect(s.verdict).toBe('pass');
    expect(s.library).toMatchObject({ behaviour: 'error at once', passed: false });
    expect(s.library!.why).toMatch(/later calls: 0 of 2 ok; breaks 2025-11-25\/client-new-session-after-404/);
    expect(markOf(s, '2025-11-25/client-new-session-after-404')).toMatchObject({
      status: 'broken',
      detail: expect.stringMatching(/^404 on req \d+; 2 later request\(s\), 2 with the dead session id, none an initialize$/),
    });
  }, 60_000);

  it('a revision the harness cannot speak makes every scenario not applicable, with its reason', async () => {
    const a = await runClientAudit(model('2026-07-28'), {
      command: fake('stale-session'),
      sidesArgs: '',
      only: ['http-502-call'],
      revision: '2026-07-28',
      timeoutMs: 1000,
    });
    expect(a.refused).toBe('the harness cannot speak 2026-07-28: speaks 2025-11-25 only');
    expect(a.scenarios.map((s) => [s.name, s.verdict])).toEqual([['http-502-call', 'not applicable']]);
    expect(liveGroups()).toEqual([]);
  }, 30_000);
});
