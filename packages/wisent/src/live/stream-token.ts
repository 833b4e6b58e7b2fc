import { createHmac, timingSafeEqual } from "node:crypto";

/** The app's secrets, newest first: the first signs, every one verifies (rotation). */
export type StreamSecrets = () => readonly string[];

function mac(secret: string, name: string): Buffer {
  return createHmac("sha256", `wisent live stream\0${secret}`).update(name).digest();
}

/**
 * The token a page subscribes with: the stream's name and its HMAC-SHA256 under the app's
 * secret, both base64url (`d2lkZ2V0cw.<43 characters>`). A page can only subscribe to a stream
 * the server named for it; the name itself is not secret.
 *
 * @param name - the stream's name (`widgets`, `notes:0190…`)
 * @param secrets - the app's secrets; the first signs
 * @returns the token
 * @example signStreamName("widgets", () => [secret]); // "d2lkZ2V0cw.K3…"
 */
export function signStreamName(name: string, secrets: StreamSecrets): string {
  const secret = secrets()[0];
  // Internal: the App hands over its session secrets, which are never empty (resolveSessionPasswords).
  if (secret === undefined) throw new Error("no secret to sign live stream names with");
  return `${Buffer.from(name).toString("base64url")}.${mac(secret, name).toString("base64url")}`;
}

/**
 * The stream a token names, when one of the app's secrets signed it; undefined for a tampered,
 * forged or malformed token.
 *
 * @param token - what the page sent
 * @param secrets - the app's secrets, every one verifies
 * @returns the stream's name, or undefined
 * @example verifyStreamToken(c.req.param("live_stream"), secrets) ?? refuse(403);
 */
export function verifyStreamToken(token: string, secrets: StreamSecrets): string | undefined {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.length > 1024) return undefined;
  const signature = token.slice(dot + 1);
  if (!/^[\w-]{43}$/.test(signature)) return undefined;
  const name = Buffer.from(token.slice(0, dot), "base64url").toString();
  // base64url decoding skips what it cannot read: the name must encode back to the same text.
  if (Buffer.from(name).toString("base64url") !== token.slice(0, dot)) return undefined;
  const given = Buffer.from(signature, "base64url");
  const valid = secrets().some((secret) => {
    const expected = mac(secret, name);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return valid ? name : undefined;
}
