/**
 * Test helpers for mail, in the style of Laravel's `Mail::assertSent` and Rails'
 * `assert_emails`: the mail this test process sent (the test environment captures it, never
 * sends it). Mail sent through a job (`deliverLater`) is sent once the job runs:
 * `await performEnqueued()` first.
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { WisentError } from "../base/wisent-error.js";
import { type MailMessage, sentMail } from "../mail/mailer.js";

/** A mail as captured: its sender filled in. */
export type SentMail = MailMessage & { readonly from: string };

/** What a sent mail must have: some of its fields (equal), or a test of it. */
export type MailMatch = Partial<SentMail> | ((mail: SentMail) => boolean);

function matches(mail: SentMail, match: MailMatch | undefined): boolean {
  if (match === undefined) return true;
  if (typeof match === "function") return match(mail);
  return Object.entries(match).every(([key, value]) =>
    isDeepStrictEqual((mail as unknown as Record<string, unknown>)[key], value),
  );
}

/**
 * Fails unless a mail was sent that matches (`match`: some of its fields, or a test); returns the
 * last such mail. The message lists what was sent.
 *
 * @example
 * await performEnqueued();
 * const mail = assertSent({ to: email });
 * expect(mail.text).toContain("/passwords/");
 */
export function assertSent(match?: MailMatch): SentMail {
  const found = sentMail().findLast((mail) => matches(mail, match));
  if (found) return found;
  const sent = sentMail().map((m) => `${m.to} "${m.subject}"`);
  throw new WisentError(
    "E_TEST_ASSERTION",
    `expected a mail${match === undefined ? "" : ` matching ${typeof match === "function" ? "the test" : JSON.stringify(match)}`} to be sent; ${sent.length === 0 ? "none was" : `sent: ${sent.join(", ")}`}`,
  );
}

/**
 * Fails when any mail was sent (since the last `clearSentMail()`).
 *
 * @example
 * await browser.post("/passwords", { form: { email: "nobody@example.com" } });
 * await performEnqueued();
 * assertNothingSent();
 */
export function assertNothingSent(): void {
  const sent = sentMail();
  if (sent.length === 0) return;
  throw new WisentError(
    "E_TEST_ASSERTION",
    `expected no mail to be sent; sent: ${sent.map((m) => `${m.to} "${m.subject}"`).join(", ")}`,
  );
}
