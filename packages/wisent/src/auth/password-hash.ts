import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { currentEnv, threadPoolSizeSetting } from "../config/settings.js";

/**
 * Password hashing with scrypt from `node:crypto`.
 *
 * Why scrypt and not argon2id: both are memory-hard and on OWASP's list; scrypt ships with Node
 * (OpenSSL), so there is no native add-on to build or keep up to date on every platform the app
 * is deployed to, and no extra package on the sign-in path. The parameters are OWASP's for scrypt
 * (N=2^17, r=8, p=1: 128 MiB, about a tenth of a second per hash).
 *
 * The stored string describes itself (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, base64url), so the
 * parameters can be raised later: {@link verifyPassword} says `rehash: true` for a hash made with
 * weaker ones, and the sign-in action stores a new hash then.
 * @module
 */

/** scrypt's cost parameters: N = 2^ln, block size r, parallelism p. */
export interface ScryptParams {
  readonly ln: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP's scrypt parameters (Password Storage Cheat Sheet): N=2^17, r=8, p=1. */
export const PASSWORD_HASH_PARAMS: ScryptParams = { ln: 17, r: 8, p: 1 };
/**
 * In the test environment hashes are cheaper (N=2^12), as Rails' `has_secure_password` uses
 * bcrypt's lowest cost in tests: a suite signs in hundreds of times. Every other environment
 * gets {@link PASSWORD_HASH_PARAMS}.
 */
export const TEST_PASSWORD_HASH_PARAMS: ScryptParams = { ln: 12, r: 8, p: 1 };

/**
 * The parameters new hashes get in `env` (default the current environment).
 * @param env - the environment's name
 * @returns the cheaper test parameters in `test`, else OWASP's
 */
export function passwordHashParams(env: string = currentEnv()): ScryptParams {
  return env === "test" ? TEST_PASSWORD_HASH_PARAMS : PASSWORD_HASH_PARAMS;
}

/** The shortest password accepted (OWASP, NIST SP 800-63B: at least 8; Wisent asks for 12). */
export const PASSWORD_MIN_LENGTH = 12;
/**
 * The longest password accepted, in characters. scrypt reads every byte (unlike bcrypt, which
 * silently ignores what follows byte 72), so long passphrases are hashed whole; the bound only
 * keeps a request from making the server hash megabytes.
 */
export const PASSWORD_MAX_LENGTH = 1024;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PREFIX = "$scrypt$";

/**
 * How many hashes run at once in this process: half of libuv's thread pool (4 threads unless
 * `UV_THREADPOOL_SIZE` says otherwise), at least one. scrypt runs on that pool; four sign-ups
 * at once would take every thread (and 512 MiB) and leave file reads, DNS and other crypto
 * waiting. Further hashes wait their turn here, holding nothing.
 */
export const CONCURRENT_HASHES = Math.max(1, Math.floor(threadPoolSizeSetting() / 2));

/**
 * A turn-taker: the function it makes runs `work` once fewer than `max` others run.
 * @example const inTurn = turns(2); await inTurn(() => slowWork());
 */
export function turns(max: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

const inHashingTurn = turns(CONCURRENT_HASHES);

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return inHashingTurn(() => scryptKey(password, salt, params));
}

function scryptKey(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs 128 * N * r bytes; Node refuses above `maxmem` (32 MiB by default).
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a password: a fresh random salt, scrypt with `params`, one self-describing string.
 * The password's length is not checked here: check it against `PASSWORD_MIN_LENGTH` and
 * `PASSWORD_MAX_LENGTH` first (the generated sign-up does).
 *
 * @param password - the password, normalized to NFC before hashing
 * @param params - scrypt's cost (default: this environment's, {@link passwordHashParams})
 * @returns `$scrypt$ln=..,r=..,p=..$<salt>$<hash>`, to store
 * @throws RangeError of `node:crypto` when scrypt refuses the parameters
 * @example
 * const digest = await hashPassword("correct horse battery staple");
 * // "$scrypt$ln=17,r=8,p=1$3q2+7w...$Zm9v..."
 */
export async function hashPassword(
  password: string,
  params: ScryptParams = passwordHashParams(),
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `${PREFIX}ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** A stored hash taken apart; undefined when it is not one {@link hashPassword} makes. */
export function parsePasswordHash(
  digest: string,
): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([\w-]+)\$([\w-]+)$/.exec(digest);
  if (!match) return undefined;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (params.ln < 1 || params.ln > 24 || params.r < 1 || params.p < 1) return undefined;
  return {
    params,
    salt: Buffer.from(match[4]!, "base64url"),
    key: Buffer.from(match[5]!, "base64url"),
  };
}

/** What {@link verifyPassword} found. */
export interface PasswordCheck {
  /** The password matches the stored hash. */
  readonly ok: boolean;
  /** It matches, and the hash was made with weaker parameters than today's: store a new one. */
  readonly rehash: boolean;
}

function weaker(a: ScryptParams, b: ScryptParams): boolean {
  return a.ln < b.ln || a.r < b.r || a.p < b.p;
}

/**
 * Checks a password against a stored hash, comparing in constant time. A malformed hash never
 * matches (and costs as much as a real check, so it tells nothing by its timing).
 *
 * @param password - the password given
 * @param digest - the stored hash ({@link hashPassword}'s)
 * @param current - today's parameters, to tell whether the hash needs renewing
 * @returns `ok` when it matches, and `rehash` when it matches a hash made with weaker parameters
 * @example
 * const { ok, rehash } = await verifyPassword(input.password, user.password_digest);
 * if (ok && rehash) await User.update(tx, user, { password_digest: await hashPassword(input.password) });
 */
export async function verifyPassword(
  password: string,
  digest: string,
  current: ScryptParams = passwordHashParams(),
): Promise<PasswordCheck> {
  const parsed = parsePasswordHash(digest);
  if (!parsed || parsed.key.length !== KEY_BYTES) {
    await verifyWithoutUser(password, current);
    return { ok: false, rehash: false };
  }
  const key = await derive(password, parsed.salt, parsed.params);
  const ok = timingSafeEqual(key, parsed.key);
  return { ok, rehash: ok && weaker(parsed.params, current) };
}

const dummies = new Map<string, Promise<string>>();

/**
 * Spends the time of a real check when there is no user to check against (an unknown email), so
 * a sign-in's answer time does not tell whether an account exists. Always false.
 *
 * @param password - the password given
 * @param params - the parameters a real check would use
 * @returns false, after as long as a check takes
 * @example
 * if (!user) { await verifyWithoutUser(input.password); return wrongCredentials(); }
 */
export async function verifyWithoutUser(
  password: string,
  params: ScryptParams = passwordHashParams(),
): Promise<false> {
  const id = `${params.ln},${params.r},${params.p}`;
  let dummy = dummies.get(id);
  if (!dummy) {
    dummy = hashPassword(randomBytes(18).toString("base64url"), params);
    dummies.set(id, dummy);
  }
  const parsed = parsePasswordHash(await dummy)!;
  const key = await derive(password, parsed.salt, parsed.params);
  timingSafeEqual(key, parsed.key);
  return false;
}
