/**
 * Whether to colour output, by the usual conventions (https://no-color.org, FORCE_COLOR).
 * @example colorWanted({ NO_COLOR: "1" }, true) // false
 */
import type { Env } from "../config/env.js";
import { colorSetting } from "../config/settings.js";

export function colorWanted(env: Env, isTTY: boolean): boolean {
  return colorSetting(env) ?? isTTY;
}
