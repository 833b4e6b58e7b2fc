import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, freshApp, type ShopApp } from "../test/support.js";

const src = new URL("./", import.meta.url);
const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`./locales/${file}`, import.meta.url), "utf8"));

/** Flattens `{ app: { title } }` to `app.title`, as i18n() does. */
function flatten(messages: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === "string") out[`${prefix}${key}`] = value;
    else Object.assign(out, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
  }
  return out;
}

const enUS = Object.assign(
  {},
  ...readdirSync(new URL("./locales/", src))
    .filter((file) => file.endsWith("en-US.json"))
    .map((file) => flatten(read(file))),
) as Record<string, string>;

/** Every message id the app's code asks for: `c.t("…")` in actions, `page.t("…")` in templates. */
function usedIds(): string[] {
  const ids = new Set<string>();
  const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter(
    (file) => /\.tsx?$/.test(file) && !file.endsWith(".test.ts"),
  );
  for (const file of files) {
    const code = readFileSync(new URL(file, src), "utf8");
    for (const match of code.matchAll(/\b(?:c|page)\.t\("([^"]+)"/g)) ids.add(match[1] ?? "");
  }
  return [...ids];
}

let app: ShopApp;
beforeAll(async () => {
  ({ app } = await freshApp());
});

describe("locale messages (en-US, the default locale)", () => {
  it("has the generated messages for widgets and images", () => {
    expect(enUS).toMatchObject({
      "widget.created.success": "Widget was successfully created.",
      "widget.updated.success": "Widget was successfully updated.",
      "widget.destroyed.success": "Widget was successfully destroyed.",
      "image.created.success": "Image was successfully created.",
      "image.updated.success": "Image was successfully updated.",
      "image.destroyed.success": "Image was successfully destroyed.",
    });
  });

  it("has a message for every id the actions and templates ask for", () => {
    const ids = usedIds();
    expect(ids).toEqual(expect.arrayContaining(["widget.created.success", "app.title"]));
    expect(ids.filter((id) => !(id in enUS))).toEqual([]);
  });

  it("pages are en-US, and a language the app has no messages for falls back to en-US", async () => {
    const { browser } = clients(app);
    const home = await (await browser.get("/")).text();
    expect(home).toContain('<html lang="en-US">');
    expect(home).toContain("<title>Shop</title>");
    expect(home).toContain("Made with Wisent.");

    const res = await browser.post("/widgets", {
      form: { title: "Übersetzt" },
      headers: { "accept-language": "de-DE,de;q=0.9" },
    });
    const page = await (
      await browser.get(res.headers.get("location") ?? "/", {
        headers: { "accept-language": "de-DE,de;q=0.9" },
      })
    ).text();
    expect(page).toContain('<html lang="en-US">');
    expect(page).toContain("Widget was successfully created.");
    expect(page).not.toContain("widget.created.success");
  });
});
