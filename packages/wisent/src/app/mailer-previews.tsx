/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
import type { Context, Handler } from "hono";
import { HttpError } from "../base/http-error.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { Fragment, h } from "../jsx/jsx-runtime.js";
import { renderToString } from "../jsx/render.js";
import type { MailTo, Translate } from "../mail/define-mail.js";
import type { MailMessage } from "../mail/mailer.js";

/** What a preview needs of a mail made by `defineMail`, whatever its props. */
export interface PreviewableMail {
  readonly preview?: unknown;
  message(mail: MailTo<never>): MailMessage;
}

/** The mails to preview, by mailer: `{ AccountMailer: { reset: ResetMail } }`. */
export type MailerPreviews = Readonly<Record<string, Readonly<Record<string, PreviewableMail>>>>;

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}dt{font-weight:600}iframe{width:100%;height:30rem;border:1px solid #ccc}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}`;

/** The request's translations when the app uses i18n(), else keys as their text. */
function translate(c: Context): Translate {
  const t = (c as Context & { t?: Translate }).t;
  if (typeof t !== "function") return (key) => key;
  return (key, vars) => {
    try {
      return t.call(c, key, vars);
    } catch {
      return key;
    }
  };
}

/**
 * The handlers of the development mail previews under `base`: an index of every mailer's mails,
 * and one page per mail (headers, the HTML part in a frame, the text part) rendered with its
 * sample props and the request's translations; `?part=html` is the HTML part alone.
 */
export function mailerPreviewHandlers(
  previews: MailerPreviews,
  base: string,
): { index: Handler; show: Handler } {
  const index: Handler = (c) => {
    const body = (
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Mailer previews</title>
          <style>{STYLE}</style>
        </head>
        <body>
          <h1>Mailer previews</h1>
          {Object.entries(previews).map(([mailer, mails]) => (
            <>
              <h2>{mailer}</h2>
              <ul>
                {Object.keys(mails).map((name) => (
                  <li>
                    <a href={`${base}/${mailer}/${name}`}>{name}</a>
                  </li>
                ))}
              </ul>
            </>
          ))}
        </body>
      </html>
    );
    return c.html(`<!doctype html>${renderToString(body)}`);
  };
  const show: Handler = (c) => {
    const mailer = c.req.param("mailer") as string;
    const name = c.req.param("mail") as string;
    const mail =
      Object.hasOwn(previews, mailer) && Object.hasOwn(previews[mailer]!, name)
        ? previews[mailer]![name]
        : undefined;
    if (!mail) throw new HttpError(404, `no preview ${mailer}/${name}`);
    if (mail.preview === undefined) {
      throw new HttpError(404, `${mailer}.${name} has no preview props (its defineMail's preview)`);
    }
    const message = mail.message({
      to: "preview@example.com",
      props: mail.preview as never,
      t: translate(c),
    });
    if (c.req.query("part") === "html") return c.html(message.html ?? "");
    const body = (
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>{`${mailer}/${name}`}</title>
          <style>{STYLE}</style>
        </head>
        <body>
          <p>
            <a href={base}>All previews</a>
          </p>
          <dl>
            <dt>Subject</dt>
            <dd>{message.subject}</dd>
            <dt>To</dt>
            <dd>{message.to}</dd>
            <dt>From</dt>
            <dd>{message.from ?? "MAIL_FROM"}</dd>
          </dl>
          <h2>HTML</h2>
          <iframe title="HTML part" src={`${base}/${mailer}/${name}?part=html`} />
          <h2>Text</h2>
          <pre>{message.text}</pre>
        </body>
      </html>
    );
    return c.html(`<!doctype html>${renderToString(body)}`);
  };
  return { index, show };
}
