import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { WisentError } from "../../base/wisent-error.js";

/** Messages of one language, flat: `{ "widget.created.success": "Widget was successfully created." }`. */
export type Messages = Record<string, string>;

const LOCALE_FILE = /^(?:(.+)\.)?([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.json$/;

/** `{ widget: { created: { success: "x" } } }` -> `{ "widget.created.success": "x" }`. */
export function flattenMessages(tree: unknown, prefix = "", into: Messages = {}): Messages {
  if (tree === null || typeof tree !== "object" || Array.isArray(tree)) return into;
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") into[id] = value;
    else flattenMessages(value, id, into);
  }
  return into;
}

/**
 * Loads every `*.json` locale file of a directory, by language: `en-US.json` (app-wide) and
 * `widgets.en-US.json` (one resource) both feed `en-US`. Nested or flat keys both work.
 * Throws an Error naming the directory or the file when it is missing or not valid JSON.
 */
export function loadLocaleDirectory(directory: string): Record<string, Messages> {
  let names: string[];
  try {
    // Caught below and reported as E_APP_MISCONFIGURED, naming the directory.
    if (!statSync(directory).isDirectory()) throw new Error("not a directory");
    names = readdirSync(directory).sort();
  } catch (cause) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `i18n: cannot read the locales directory ${directory}: ${(cause as Error).message}`,
      { cause },
    );
  }
  const languages: Record<string, Messages> = {};
  for (const name of names) {
    const match = LOCALE_FILE.exec(name);
    if (!match) continue;
    const language = match[2]!;
    const file = join(directory, name);
    let tree: unknown;
    try {
      tree = JSON.parse(readFileSync(file, "utf8"));
    } catch (cause) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `i18n: ${file} is not valid JSON: ${(cause as Error).message}`,
        { cause },
      );
    }
    languages[language] = flattenMessages(tree, "", languages[language] ?? {});
  }
  return languages;
}
