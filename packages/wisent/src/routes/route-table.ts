import type { RouteInfo } from "./route-info.js";

const HEADER = ["METHOD", " HOST", " PATH", " ALIASES", " NAME", " HANDLER"];
const SEPARATOR = ["------", " ----", " ----", " -------", " ----", " -------"];

/**
 * Prints routes as Buffalo's `buffalo routes` does (Go tabwriter, padding 1, Debug flag): every
 * column but the last padded to its widest cell plus one space and closed with `|`; the last
 * column unpadded. Each line ends with a newline.
 *
 * @example
 * formatRouteTable(app.routes());
 * // METHOD | HOST                  | PATH      | ALIASES | NAME        | HANDLER
 * // ------ | ----                  | ----      | ------- | ----        | -------
 * // GET    | http://127.0.0.1:3000 | /widgets/ |         | widgetsPath | WidgetsResource.List
 */
export function formatRouteTable(routes: readonly RouteInfo[]): string {
  const rows = [
    HEADER,
    SEPARATOR,
    ...routes.map((r) => [
      r.method,
      ` ${r.host}`,
      ` ${r.path}`,
      ` ${r.aliases.join(" ")}`,
      ` ${r.name}`,
      ` ${r.handler}`,
    ]),
  ];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const last = HEADER.length - 1;
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === last ? cell : `${cell.padEnd(widths[column]!)} |`))
        .join(""),
    )
    .map((line) => `${line}\n`)
    .join("");
}

/**
 * The same rows as a JSON array (pretty-printed, newline-terminated), for `wisent routes --json`.
 * @example JSON.parse(formatRouteJson(app.routes()))[0].name // "rootPath"
 */
export function formatRouteJson(routes: readonly RouteInfo[]): string {
  const plain = routes.map(({ method, host, path, aliases, name, handler }) => ({
    method,
    host,
    path,
    aliases: [...aliases],
    name,
    handler,
  }));
  return `${JSON.stringify(plain, null, 2)}\n`;
}
