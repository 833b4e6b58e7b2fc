import type { Context } from "hono";
import { SECRET_PATH_PARAM_KEY } from "../base/symbols.js";

/** `[FILTERED]`: what a log line shows for a secret. */
const FILTERED = "[FILTERED]";

/** A format extension the App strips before routing (`/passwords/<token>.json`). */
const FORMAT_SUFFIX = /\.(?:html|json|xml)$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * `path` with every segment holding one of `secrets` (the values of path parameters the log
 * filter covers: a password reset's `password_id` token) as `[FILTERED]`, matched decoded or
 * not, with a format extension or not.
 *
 * @example
 * filterPathSegments("/passwords/abc.123/edit", ["abc.123"]); // "/passwords/[FILTERED]/edit"
 */
export function filterPathSegments(path: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return path;
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === "") continue;
    const bare = segment.replace(FORMAT_SUFFIX, "");
    for (const secret of secrets) {
      if (secret === "") continue;
      if ([segment, bare, decoded(segment), decoded(bare)].includes(secret)) {
        segments[i] = FILTERED;
        break;
      }
    }
  }
  return segments.join("/");
}

/** Which path parameters a log line must not show (paramLogger's filter). */
export type SecretParam = (name: string) => boolean;

const SECRET_PARAM: typeof SECRET_PATH_PARAM_KEY = SECRET_PATH_PARAM_KEY;
type Marked = Context & { [SECRET_PARAM]?: SecretParam };

/**
 * Tells the request's other log lines (an error's) which path parameters are secret: paramLogger
 * does, with its filter, so that every line of the request filters alike.
 */
export function useSecretPathParams(c: Context, secret: SecretParam): void {
  (c as Marked)[SECRET_PARAM] = secret;
}

/**
 * The values of the request's path parameters `secret` covers (none when no route matched),
 * for {@link filterPathSegments}.
 */
export function secretPathValues(
  pathParams: Readonly<Record<string, string>>,
  secret: SecretParam,
): readonly string[] {
  let found: string[] | undefined;
  for (const name in pathParams) {
    if (!secret(name)) continue;
    const value = pathParams[name];
    if (!value) continue;
    found ??= [];
    found.push(value);
  }
  return found ?? NONE;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * The request's path as a log line shows it: the segments of secret path parameters (as
 * paramLogger's filter says) as `[FILTERED]`.
 *
 * @example
 * logger.error({ msg: "unhandled error", path: loggedPath(c) });
 */
export function loggedPath(c: Context): string {
  const path = c.req.path;
  const secret = (c as Marked)[SECRET_PARAM];
  if (!secret) return path;
  let params: Record<string, string>;
  try {
    params = c.req.param() as Record<string, string>;
  } catch {
    return path;
  }
  return filterPathSegments(path, secretPathValues(params, secret));
}
