/**
 * Whether to colour output, by the usual conventions (https://no-color.org, FORCE_COLOR).
 * @example colorWanted({ NO_COLOR: "1" }, true) // false
 */
import { type Env, envValue } from "../config/env.js";
export function colorWanted(env: Env, isTTY: boolean): boolean {
  const force = envValue("FORCE_COLOR", env);
  if (force !== undefined) return force !== "0" && force !== "false";
  if (envValue("NO_COLOR", env) !== undefined) return false;
  if (envValue("TERM", env) === "dumb") return false;
  return isTTY;
}
