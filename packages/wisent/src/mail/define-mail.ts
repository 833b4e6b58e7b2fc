import type { Enqueued } from "../jobs/define-job.js";
import type { JobTarget } from "../jobs/job-types.js";
import type { Child } from "../jsx/html.js";
import { renderToString } from "../jsx/render.js";
import { type DeliverLaterOptions, deliverLater, deliverNow } from "./deliver-mail.js";
import type { MailMessage } from "./mailer.js";

/** Translates a key of the app's locale files (`c.t` in a request). */
export type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** How a mail is declared: see {@link defineMail}. */
export interface MailSettings<P> {
  /** `account.reset`: for previews and messages. */
  readonly name: string;
  /** The subject (through the app's locale files: `t("mailers.account.reset.subject")`). */
  subject(props: P, t: Translate): string;
  /** The HTML part: TSX (`wisent/jsx`), escaped as pages are. */
  html(props: P, t: Translate): Child;
  /** The plain-text part. */
  text(props: P, t: Translate): string;
  /** Sample props for the development preview (`app.mailerPreviews`). */
  readonly preview?: P;
}

/** Who gets a mail, what it is made of, and the translation to make it with. */
export interface MailTo<P> {
  readonly to: string;
  readonly props: P;
  /** `c.t` in a request; without it, keys stand for their text. */
  readonly t?: Translate;
  /** Default the mailer's (`MAIL_FROM`). */
  readonly from?: string;
}

/** A declared mail: render it, send it from a job, or now. */
export interface Mail<P> extends MailSettings<P> {
  /** The message, rendered (HTML and text parts). */
  message(mail: MailTo<P>): MailMessage;
  /**
   * Renders now (with the request's translations) and sends from a job written through `db`:
   * given `c.tx()`, only if the request commits; retried while the mail server fails.
   */
  deliverLater(db: JobTarget, mail: MailTo<P>, options?: DeliverLaterOptions): Promise<Enqueued>;
  /** Renders and sends now, in this process (scripts). */
  deliverNow(mail: MailTo<P>): Promise<void>;
}

const keyAsText: Translate = (key) => key;

/**
 * Declares a mail: a subject, an HTML part in TSX and a text part, from typed props, with sample
 * props for its preview. `wisent g mailer` writes them.
 *
 * @example
 * export const ResetMail = defineMail<{ link: string }>({
 *   name: "account.reset",
 *   subject: (_, t) => t("mailers.account.reset.subject"),
 *   html: ({ link }) => <MailLayout><a href={link}>Choose a new password</a></MailLayout>,
 *   text: ({ link }) => `Choose a new password: ${link}`,
 *   preview: { link: "https://shop.example/passwords/token/edit" },
 * });
 * await ResetMail.deliverLater(c.tx(), { to: user.email, props: { link }, t: c.t });
 */
export function defineMail<P>(settings: MailSettings<P>): Mail<P> {
  const mail: Mail<P> = {
    ...settings,
    message({ to, props, t = keyAsText, from }) {
      return {
        to,
        subject: settings.subject(props, t),
        html: renderToString(settings.html(props, t)),
        text: settings.text(props, t),
        ...(from ? { from } : {}),
      };
    },
    deliverLater: (db, to, options) => deliverLater(db, mail.message(to), options),
    deliverNow: (to) => deliverNow(mail.message(to)),
  };
  return mail;
}
