import { z } from "zod";
import {
  defineJob,
  type Enqueued,
  type EnqueueOptions,
  type JobTarget,
} from "../jobs/define-job.js";
import { type Mailer, type MailMessage, mailer } from "./mailer.js";

/** A mail as a job carries it (JSON). */
const MailPayload = z.object({
  message: z.object({
    to: z.string().min(1),
    subject: z.string(),
    text: z.string(),
    html: z.string().optional(),
    from: z.string().optional(),
  }),
  /** False: the job is written (the same work as a real mail) but sends nothing. */
  deliver: z.boolean(),
});

let sender: Mailer | undefined;
/** The mailer jobs send with: SMTP_URL and MAIL_FROM of the worker's environment (see `mailer`). */
const deliveryMailer = (): Mailer => {
  sender ??= mailer();
  return sender;
};

/**
 * The job that sends one mail; every app that declares jobs (`app.jobs(db)`) has it registered.
 * A failure (an SMTP server answering 421, or down) is retried with backoff: 30 s, 1 min, ...,
 * 10 tries. Like any job it runs at least once: a worker killed after the server took the mail
 * and before the job was marked done sends it again.
 */
export const DeliverMail = defineJob({
  name: "wisent.deliver_mail",
  payload: MailPayload,
  queue: "mail",
  attempts: 10,
  backoff: { base: "30s", max: "1h" },
  async perform({ message, deliver }) {
    if (deliver) await deliveryMailer().send(message);
  },
});

/** Options of {@link deliverLater}. */
export interface DeliverLaterOptions extends EnqueueOptions {
  /**
   * False writes the job as for a real mail, but it sends nothing: for an answer that must cost
   * the same whether or not there is someone to mail (a reset for an unknown address). Default true.
   */
  readonly deliver?: boolean;
}

/**
 * Sends a mail from a job: given the request's transaction (`c.tx()`), the mail goes if and only
 * if the request's writes commit, after the answer, and is retried when the mail server fails.
 * A worker sends it (`wisent jobs work`; `wisent dev` and `wisent start --jobs` in-process); in
 * tests `performEnqueued()` does, and `assertSent` sees it.
 *
 * @example
 * await deliverLater(c.tx(), { to: user.email, subject: c.t("welcome.subject"), text });
 */
export function deliverLater(
  db: JobTarget,
  message: MailMessage,
  options: DeliverLaterOptions = {},
): Promise<Enqueued> {
  const { deliver = true, ...enqueue } = options;
  return DeliverMail.enqueue(db, { message: { ...message }, deliver }, enqueue);
}

/**
 * Sends a mail now, in this process (a script, a console session): no job, no retry.
 *
 * @example
 * await deliverNow({ to: "ops@example.com", subject: "Import done", text: summary });
 */
export function deliverNow(message: MailMessage): Promise<void> {
  return deliveryMailer().send(message);
}
