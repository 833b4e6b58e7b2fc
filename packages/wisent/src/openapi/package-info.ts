import { readFileSync } from "node:fs";
import { join } from "node:path";

/** What an app's package.json tells its OpenAPI document. */
export interface PackageInfo {
  readonly version: string;
  readonly license?: { name: string; identifier?: string } | undefined;
  readonly contact?: { name?: string; email?: string; url?: string } | undefined;
}

/** `Jane Doe <jane@example.com> (https://example.com)`: npm's one-line person. */
const PERSON = /^\s*([^<(]*?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?\s*$/;

function contactOf(author: unknown): PackageInfo["contact"] {
  let person: { name?: unknown; email?: unknown; url?: unknown } | undefined;
  if (typeof author === "string") {
    const [, name, email, url] = PERSON.exec(author) ?? [];
    person = { name, email, url };
  } else if (author !== null && typeof author === "object") {
    person = author as typeof person;
  }
  if (!person) return undefined;
  const contact: { name?: string; email?: string; url?: string } = {};
  for (const key of ["name", "email", "url"] as const) {
    const value = person[key];
    if (typeof value === "string" && value.trim() !== "") contact[key] = value.trim();
  }
  return Object.keys(contact).length > 0 ? contact : undefined;
}

/** An SPDX expression (`MIT`, `Apache-2.0`, `(MIT OR ISC)`) is named as one; `UNLICENSED` is not. */
function licenseOf(license: unknown): PackageInfo["license"] {
  if (typeof license !== "string" || license.trim() === "") return undefined;
  const name = license.trim();
  if (name === "UNLICENSED" || name.startsWith("SEE LICENSE")) return { name };
  return { name, identifier: name };
}

/**
 * The version, license and author of the `package.json` in `folder` (an app runs from its own):
 * version 0.0.0, no license and no contact when it has none.
 *
 * @example
 * packageInfo(); // { version: "0.1.0", license: { name: "MIT", identifier: "MIT" } }
 */
export function packageInfo(folder = process.cwd()): PackageInfo {
  let json: { version?: unknown; license?: unknown; author?: unknown };
  try {
    json = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as typeof json;
  } catch {
    return { version: "0.0.0" };
  }
  return {
    version: typeof json.version === "string" ? json.version : "0.0.0",
    license: licenseOf(json.license),
    contact: contactOf(json.author),
  };
}
