// The last guard on secrets (`--header`, `--header-env` values): whatever a report, a message or a
// server's quoted answer holds, no given value leaves the process. Values of fewer than 4 characters
// are not searched for (they would blank out ordinary words; a credential is never that short).
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('<redacted>');
  return out;
}
