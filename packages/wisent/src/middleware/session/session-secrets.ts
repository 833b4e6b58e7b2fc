import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { WisentError } from "../../base/wisent-error.js";
import { currentEnv, sessionSecretsSetting } from "../../config/settings.js";

/** One sealing password with a stable id, so a cookie sealed with an old secret stays readable. */
export interface SessionPassword {
  id: string;
  secret: string;
}

/** Iron needs at least 32 characters of password. */
const MIN_LENGTH = 32;

/** How to make a secret, said by every error that asks for one. */
export const MAKE_A_SECRET =
  "make one with `npx wisent secret` (or `openssl rand -hex 32`) and set it in the environment or .env";

function passwordFor(secret: string): SessionPassword {
  // The id travels in the cookie; a digest names the secret without revealing it.
  const id = createHash("sha256").update(secret).digest("hex").slice(0, 12);
  return { id, secret };
}

/** A new random secret: 32 bytes as 64 hex characters (what `wisent secret` prints). */
export function newSessionSecret(): string {
  return randomBytes(32).toString("hex");
}

/** Where development keeps its secret: `tmp/local_secret.txt` in the app's folder (git-ignored). */
export const DEVELOPMENT_SECRET_FILE = join("tmp", "local_secret.txt");

/**
 * The development secret of a checkout: random, made on first use and kept in `file` (as Rails'
 * `tmp/local_secret.txt`), so sessions survive restarts of `wisent dev` while nobody else can
 * compute it. Two processes starting at once agree: the file is created exclusively, and the
 * loser reads the winner's secret.
 */
export function developmentSecret(
  file: string = join(process.cwd(), DEVELOPMENT_SECRET_FILE),
): string {
  const existing = readSecretFile(file);
  if (existing) return existing;
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${newSessionSecret()}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const made = readSecretFile(file);
  if (!made) {
    throw new WisentError(
      "E_CONFIG_INVALID",
      `could not read the development session secret in ${file}: make the file readable, or set SESSION_SECRET`,
    );
  }
  return made;
}

function readSecretFile(file: string): string | undefined {
  try {
    const text = readFileSync(file, "utf8").trim();
    return text.length >= MIN_LENGTH ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The test environment's secret: random, one per process (per test run). */
let testSecret: string | undefined;
function testRunSecret(): string {
  testSecret ??= newSessionSecret();
  return testSecret;
}

export interface ResolveSecretsOptions {
  /** The secret(s); default `SESSION_SECRET`, comma-separated, newest first. */
  secret?: string | readonly string[];
  /** Older secrets still accepted when reading cookies (never used to write). */
  oldSecrets?: readonly string[];
  env?: string;
  /** Where development keeps its random secret; default `tmp/local_secret.txt` under the cwd. */
  developmentSecretFile?: string;
}

/**
 * The passwords sessions are sealed with: the first one seals, all of them unseal. Rotation:
 * set `SESSION_SECRET="new-secret,old-secret"` (or pass `oldSecrets`), deploy, and drop the old
 * one once its cookies have expired. Without a secret, `development` uses its checkout's random
 * secret (see {@link developmentSecret}) and `test` a random one per run; every other
 * environment throws, saying how to make one. A secret shorter than 32 characters throws anywhere.
 */
export function resolveSessionPasswords(options: ResolveSecretsOptions = {}): SessionPassword[] {
  const env = options.env ?? currentEnv();
  const given =
    options.secret === undefined
      ? sessionSecretsSetting()
      : typeof options.secret === "string"
        ? options.secret.split(",")
        : [...options.secret];
  const secrets = [...given, ...(options.oldSecrets ?? [])].map((s) => s.trim()).filter(Boolean);
  if (secrets.length === 0) {
    if (env === "development")
      return [passwordFor(developmentSecret(options.developmentSecretFile))];
    if (env === "test") return [passwordFor(testRunSecret())];
    throw new WisentError(
      "E_CONFIG_INVALID",
      `SESSION_SECRET is not set: the ${env} environment needs a secret of at least ${MIN_LENGTH} characters to seal session cookies (only development and test run without one): ${MAKE_A_SECRET}`,
    );
  }
  for (const secret of secrets) {
    if (secret.length < MIN_LENGTH) {
      throw new WisentError(
        "E_CONFIG_INVALID",
        `SESSION_SECRET: each secret must be at least ${MIN_LENGTH} characters (one has ${secret.length}): ${MAKE_A_SECRET}`,
      );
    }
  }
  return secrets.map(passwordFor);
}
