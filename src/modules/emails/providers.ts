// Where outgoing email goes, by configuration (§10): `log` writes it to the log and sends nothing
// (the default, so development needs no account); `http` POSTs it as JSON to EMAIL_API_URL with
// EMAIL_API_KEY as a bearer token, the shape several transactional email services accept, with
// `reply_to` the issuer's email so a client's answer reaches them. Any answer but 2xx is a failed
// attempt, with the reason kept on the outbox row.
import { config } from '../../config';
import { readAnswerStart } from '../../lib/bounded-read';

/** An email as a room composes it; `replyTo`: where a reply goes, when not to EMAIL_FROM. */
export type ComposedEmail = { subject: string; html: string; text: string; replyTo?: string | null };
export type OutgoingEmail = ComposedEmail & { to: string[]; cc: string[] };
export type SendResult = { ok: true } | { ok: false; error: string };

const TIMEOUT_MS = 10_000;

export async function sendEmail(env: Env, email: OutgoingEmail): Promise<SendResult> {
  const cfg = config(env);
  if (cfg.EMAIL_PROVIDER === 'log') {
    console.log(JSON.stringify({ level: 'info', message: 'email (log provider: not sent)', from: cfg.EMAIL_FROM, reply_to: email.replyTo ?? null, to: email.to, cc: email.cc, subject: email.subject, text: email.text }));
    return { ok: true };
  }
  try {
    const res = await fetch(cfg.EMAIL_API_URL, {
      method: 'POST',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.EMAIL_API_KEY}` },
      body: JSON.stringify({
        from: cfg.EMAIL_FROM, to: email.to, ...(email.cc.length ? { cc: email.cc } : {}), ...(email.replyTo ? { reply_to: email.replyTo } : {}),
        subject: email.subject, html: email.html, text: email.text,
      }),
    });
    if (res.ok) return { ok: true };
    const detail = (await readAnswerStart(res, 300).catch(() => '')).slice(0, 300);
    return { ok: false, error: `The email service answered ${res.status}${detail ? `: ${detail}` : ''}` };
  } catch (err) {
    return { ok: false, error: `The email service could not be reached: ${String(err)}` };
  }
}
