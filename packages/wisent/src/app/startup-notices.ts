import type { EnvironmentVariableName } from "../config/environment-variables.js";
import {
  noticesShownSetting,
  recordNoticesShown,
  unknownEnvironmentNotice,
} from "../config/settings.js";
import { sharedLogger } from "../http/logger.js";

/**
 * The environment variable that tells a process which start-up notices its process tree has
 * printed already: a cluster primary or Vitest's main process prints them and sets it, and the
 * workers it then starts inherit it, so a notice appears once per `wisent start --workers 4` or
 * test run, not once per worker or test file.
 */
export const NOTICES_SHOWN = "WISENT_NOTICES_SHOWN" satisfies EnvironmentVariableName;

/** The notices an app in environment `envName` starts with (today: an unknown environment name). */
export function startupNotices(envName: string): string[] {
  const unknown = unknownEnvironmentNotice(envName);
  return unknown === undefined ? [] : [unknown];
}

/**
 * Prints each start-up notice of `envName` that this process tree has not printed yet, and
 * records it in `env` (default `process.env`, which child processes and workers inherit).
 *
 * @example
 * announceStartupNotices("staging"); // once: 'environment "staging" is not development, ...'
 * announceStartupNotices("staging"); // nothing, here and in the workers forked after it
 */
export function announceStartupNotices(
  envName: string,
  env: NodeJS.ProcessEnv = process.env,
  print: (notice: string) => void = (msg) => sharedLogger().warn({ msg }),
): void {
  const shown = new Set(noticesShownSetting(env));
  for (const notice of startupNotices(envName)) {
    const key = noticeKey(notice);
    if (shown.has(key)) continue;
    shown.add(key);
    print(notice);
  }
  recordNoticesShown([...shown], env);
}

/** A short, comma-free key for a notice (its text would make a long variable). */
function noticeKey(notice: string): string {
  let hash = 0;
  for (const char of notice) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return (hash >>> 0).toString(36);
}
