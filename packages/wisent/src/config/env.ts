import { WisentError } from "../base/wisent-error.js";
import type { EnvironmentVariableName } from "./environment-variables.js";

/** A set of environment variables: `process.env`, or an app's with its `.env` applied. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The value of a variable from the table (environment-variables.ts), trimmed; undefined when it
 * is unset or empty. The one place Wisent reads the process's environment.
 *
 * @example envValue("DATABASE_URL") // "postgres://127.0.0.1/shop", or undefined
 */
export function envValue(
  name: EnvironmentVariableName,
  env: Env = process.env,
): string | undefined {
  const value = env[name]?.trim();
  return value === "" ? undefined : value;
}

/** Writes a variable of the table (for the processes this one starts, which inherit it). */
export function setEnvValue(name: EnvironmentVariableName, value: string): void {
  process.env[name] = value;
}

/**
 * Puts `vars` into this process's environment (which the app code a command imports and the
 * processes it starts read): those not set already, or all of them with `override`.
 *
 * @example exportEnvironment({ DATABASE_URL: "sqlite:db/test.sqlite" }, { override: true });
 */
export function exportEnvironment(vars: Env, options: { override?: boolean } = {}): void {
  for (const [key, value] of Object.entries(vars)) {
    if (value !== undefined && (options.override || process.env[key] === undefined)) {
      process.env[key] = value;
    }
  }
}

/** A variable whose value Wisent cannot use: the message names it, the value and what is accepted. */
export class ConfigError extends WisentError {
  override name = "ConfigError";
  constructor(message: string) {
    super("E_CONFIG_INVALID", message);
  }
}

/**
 * A whole number from the variable `name`, or `fallback` when unset; anything else throws a
 * {@link ConfigError} naming the variable and the range.
 *
 * @example integerSetting("POOL_SIZE", 10, { min: 1, max: 1000 })
 */
export function integerSetting(
  name: EnvironmentVariableName,
  fallback: number,
  range: { min: number; max: number; unit?: string },
  env: Env = process.env,
): number {
  const raw = envValue(name, env);
  if (raw === undefined) return fallback;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= range.min && value <= range.max)) {
    const what = range.unit ? ` of ${range.unit}` : "";
    throw new ConfigError(
      `${name} must be a whole number${what} from ${range.min} to ${range.max}, got ${JSON.stringify(raw)}: correct it in the environment or .env`,
    );
  }
  return value;
}
