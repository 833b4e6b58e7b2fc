import { WisentError } from "../base/wisent-error.js";

/** A length of time: milliseconds, or text such as `"500ms"`, `"90s"`, `"5m"`, `"1h"`, `"7d"`. */
export type Duration = number | string;

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * A {@link Duration} in milliseconds; anything else throws naming `what` and the accepted forms.
 *
 * @example
 * durationMs("1h", "every"); // 3600000
 * durationMs(250, "delay");  // 250
 */
export function durationMs(value: Duration, what: string): number {
  if (typeof value === "number") {
    if (Number.isFinite(value) && value >= 0) return value;
  } else {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(value);
    if (match) return Number(match[1]) * UNITS[match[2]!]!;
  }
  throw new WisentError(
    "E_CONFIG_INVALID",
    `${what} must be a duration: milliseconds (a number of 0 or more) or text such as "90s", "5m", "1h", "7d"; got ${JSON.stringify(value)}`,
  );
}
