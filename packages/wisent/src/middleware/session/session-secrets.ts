import { createHash } from "node:crypto";
import { currentEnv } from "../../app/environment.js";

/** One sealing password with a stable id, so a cookie sealed with an old secret stays readable. */
export interface SessionPassword {
  id: string;
  secret: string;
}

/** Iron needs at least 32 characters of password. */
const MIN_LENGTH = 32;

function passwordFor(secret: string): SessionPassword {
  // The id travels in the cookie; a digest names the secret without revealing it.
  const id = createHash("sha256").update(secret).digest("hex").slice(0, 12);
  return { id, secret };
}

/**
 * The development/test fallback secret of an app: stable per app name (so sessions survive
 * restarts in `wisent dev`) and useless anywhere else, because production refuses to use it.
 */
export function developmentSecret(appName: string): string {
  return createHash("sha256")
    .update(`wisent development session secret for ${appName}`)
    .digest("hex");
}

export interface ResolveSecretsOptions {
  /** The secret(s); default `SESSION_SECRET`, comma-separated, newest first. */
  secret?: string | readonly string[];
  /** Older secrets still accepted when reading cookies (never used to write). */
  oldSecrets?: readonly string[];
  env?: string;
  appName?: string;
  /** Called once when the development fallback is used. */
  warn?: (message: string) => void;
}

/**
 * The passwords sessions are sealed with: the first one seals, all of them unseal. Rotation:
 * set `SESSION_SECRET="new-secret,old-secret"` (or pass `oldSecrets`), deploy, and drop the old
 * one once its cookies have expired. Throws in production when there is no secret, and anywhere
 * when a secret is shorter than 32 characters.
 */
export function resolveSessionPasswords(options: ResolveSecretsOptions = {}): SessionPassword[] {
  const env = options.env ?? currentEnv();
  const given =
    options.secret === undefined
      ? (process.env.SESSION_SECRET ?? "").split(",")
      : typeof options.secret === "string"
        ? options.secret.split(",")
        : [...options.secret];
  const secrets = [...given, ...(options.oldSecrets ?? [])].map((s) => s.trim()).filter(Boolean);
  if (secrets.length === 0) {
    if (env === "production") {
      throw new Error(
        "SESSION_SECRET is not set: production needs a secret of at least 32 characters to seal session cookies (e.g. `openssl rand -hex 32`)",
      );
    }
    const appName = options.appName ?? "wisent";
    options.warn?.(
      `SESSION_SECRET is not set: using a development secret for "${appName}" (${env} only; production refuses to start without one)`,
    );
    return [passwordFor(developmentSecret(appName))];
  }
  for (const secret of secrets) {
    if (secret.length < MIN_LENGTH) {
      throw new Error(
        `SESSION_SECRET: each secret must be at least ${MIN_LENGTH} characters (one has ${secret.length})`,
      );
    }
  }
  return secrets.map(passwordFor);
}
