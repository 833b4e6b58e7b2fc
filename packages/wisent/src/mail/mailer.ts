import type { Transporter } from "nodemailer";
import {
  isDependencyInstalled,
  MissingDependencyError,
  requireDependency,
} from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";
import {
  currentEnv,
  isProductionLike,
  mailFromSetting,
  smtpUrlSetting,
} from "../config/settings.js";
import { type Logger, sharedLogger } from "../http/logger.js";

/** One mail to send. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** Default the mailer's `from`. */
  readonly from?: string;
}

/** Sends mail. */
export interface Mailer {
  /**
   * Sends one mail (captured in tests, printed in development, by SMTP elsewhere).
   * @param message - to, subject, text, and optionally html and from
   * @throws WisentError `E_CONFIG_INVALID` when SMTP is needed (a production-like environment)
   *   and `SMTP_URL` is not set
   * @throws MissingDependencyError (`E_MISSING_DEPENDENCY`) when SMTP is needed and nodemailer
   *   is not installed
   * @throws Error of nodemailer when the SMTP server refuses the mail
   */
  send(message: MailMessage): Promise<void>;
}

/** Options of {@link mailer}. */
export interface MailerOptions {
  /** The sender; default `MAIL_FROM`, else `no-reply@localhost`. */
  readonly from?: string;
  /** `smtp://user:pass@host:587`; default `SMTP_URL` (required in production-like environments). */
  readonly smtpUrl?: string;
  /** Default `GO_ENV`, else `NODE_ENV`, else development. */
  readonly env?: string;
  /** Where development prints its mail; default the app's logger. */
  readonly logger?: Logger;
}

const captured: (MailMessage & { from: string })[] = [];

/**
 * The mail sent in the test environment, oldest first (nothing leaves the process there).
 * @returns every mail captured since the last {@link clearSentMail}, with its `from`
 * @example expect(sentMail().at(-1)?.to).toBe("ada@example.com");
 */
export function sentMail(): readonly (MailMessage & { from: string })[] {
  return captured;
}

/**
 * Forgets the captured mail (between tests).
 * @example beforeEach(() => clearSentMail());
 */
export function clearSentMail(): void {
  captured.length = 0;
}

/**
 * Throws, naming both, when a production-like environment could not send mail: `SMTP_URL` unset
 * or the package nodemailer not installed. At start-up rather than at the first mail, which a
 * password reset sends after its answer, where a failure reaches only the log.
 */
function checkMailCanBeSent(env: string, smtpUrl: string | undefined): void {
  const missing = [
    ...(smtpUrl ? [] : ["SMTP_URL is not set"]),
    ...(isDependencyInstalled("nodemailer") ? [] : ["the package nodemailer is not installed"]),
  ];
  if (missing.length === 0) return;
  throw new WisentError(
    "E_CONFIG_INVALID",
    `mailer: the ${env} environment sends real mail, which needs SMTP_URL (smtp://user:password@host:587) and the package nodemailer (\`npm install nodemailer\` in the app's folder), but ${missing.join(" and ")}. Only development (which prints mail to the log) and test (which keeps it for sentMail()) run without them`,
  );
}

/**
 * A mailer through nodemailer: SMTP from `SMTP_URL` in production (and wherever it is set); in
 * development each mail is printed to the log (with its links, to click); in tests captured for
 * {@link sentMail}. The transport is made on first send. In a production-like environment
 * (anything but development and test) it throws when made without `SMTP_URL` or without the
 * package nodemailer, so that an app that sends mail does not start unable to.
 *
 * @param options - the sender (`from`), the `smtpUrl` (default `SMTP_URL`), the environment and
 *   the development logger
 * @returns the mailer; nothing is checked or connected until the first `send`
 * @example
 * const mail = mailer();
 * await mail.send({ to: user.email, subject: "Reset your password", text: `Open ${link}` });
 */
export function mailer(options: MailerOptions = {}): Mailer {
  const env = options.env ?? currentEnv();
  const from = options.from ?? mailFromSetting();
  let transport: Transporter | undefined;
  // Loaded on the first mail sent: an app that sends none never loads nodemailer.
  const createTransport = (how: string | { jsonTransport: true }): Transporter =>
    requireDependency<typeof import("nodemailer")>("nodemailer").createTransport(how as never);
  const smtp = () => {
    const url = options.smtpUrl ?? smtpUrlSetting();
    if (!url) {
      throw new WisentError(
        "E_CONFIG_INVALID",
        `mailer: SMTP_URL is not set (smtp://user:password@host:587): ${env} sends real mail`,
      );
    }
    transport ??= createTransport(url);
    return transport;
  };
  if (isProductionLike(env)) checkMailCanBeSent(env, options.smtpUrl ?? smtpUrlSetting());
  const smtpWanted = isProductionLike(env) || Boolean(options.smtpUrl ?? smtpUrlSetting());
  return {
    async send(message) {
      const mail = { ...message, from: message.from ?? from };
      if (env === "test" && !options.smtpUrl) {
        captured.push(mail);
        return;
      }
      if (smtpWanted) {
        await smtp().sendMail(mail);
        return;
      }
      // Development: built by nodemailer as it would be sent (when the app installed it: it is
      // an optional peer of wisent, needed for real mail), then printed rather than sent.
      if (transport === undefined) {
        try {
          transport = createTransport({ jsonTransport: true });
        } catch (error) {
          if (!(error instanceof MissingDependencyError)) throw error;
        }
      }
      await transport?.sendMail(mail);
      (options.logger ?? sharedLogger()).info({
        msg: `mail to ${mail.to}: ${mail.subject}\n\n${mail.text}`,
      });
    },
  };
}
