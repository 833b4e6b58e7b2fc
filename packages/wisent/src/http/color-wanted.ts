/**
 * Whether to colour output, by the usual conventions (https://no-color.org, FORCE_COLOR).
 * @example colorWanted({ NO_COLOR: "1" }, true) // false
 */
export function colorWanted(
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}
