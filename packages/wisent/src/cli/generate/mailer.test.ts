/**
 * Slow: `wisent generate mailer` in a real app made by `wisent new --dev`: the mailer and its
 * test type-check, lint clean and pass; its previews answer under the app in development; a
 * second mailer shares the layout and the previews' routes; `wisent destroy mailer -y` gives
 * back the app byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tree } from "./test-support/fixture-app.js";
import {
  expectTypeChecksAndLints,
  inApp,
  migrateAndTest,
  newApp,
  SLOW,
  wisent,
} from "./test-support/generated-app.js";

let root: string;
let app: string;
let before: Record<string, string>;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-mailer-"));
  app = await newApp(root, "post");
  before = tree(app);
  await wisent(app, ["g", "mailer", "account", "reset", "welcome"]);
  await wisent(app, ["g", "mailer", "billing", "receipt"]);
}, SLOW);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("wisent generate mailer", { timeout: SLOW }, () => {
  it("writes the mails, the shared layout, the subjects and the test, with previews in src/app.ts", () => {
    const mailer = readFileSync(join(app, "src/mailers/account.tsx"), "utf8");
    expect(mailer).toContain("export const AccountMailer = {");
    expect(mailer).toContain('name: "account.reset"');
    expect(mailer).toContain('t("mailers.account.welcome.subject", { ...props })');
    expect(
      JSON.parse(readFileSync(join(app, "src/locales/account_mailer.en-US.json"), "utf8")),
    ).toEqual({
      "mailers.account.reset.subject": "Account reset",
      "mailers.account.welcome.subject": "Account welcome",
    });
    const source = readFileSync(join(app, "src/app.ts"), "utf8");
    expect(source).toContain(
      "app.mailerPreviews({ AccountMailer }); // development: /__wisent/mailers",
    );
    expect(source).toContain("app.mailerPreviews({ BillingMailer });");
  });

  it("type-checks, lints clean and passes its generated tests", async () => {
    await expectTypeChecksAndLints(app);
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/account\.test\.ts/);
  });

  it("serves the previews of both mailers in development, subjects from the locale file", async () => {
    const script = join(app, "preview-probe.ts");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      script,
      `import { app } from "./src/app.js";
const index = await (await app.fetch(new Request("http://127.0.0.1/__wisent/mailers"))).text();
const page = await (await app.fetch(new Request("http://127.0.0.1/__wisent/mailers/BillingMailer/receipt"))).text();
console.log(JSON.stringify({ index, page }));
`,
    );
    const tsx = join(
      new URL("../../../../../", import.meta.url).pathname,
      "node_modules/tsx/dist/cli.mjs",
    );
    const probe = await inApp(app, tsx, [script], { GO_ENV: "development" });
    rmSync(script);
    expect(probe.code, probe.output).toBe(0);
    const line = probe.output.split("\n").find((l) => l.startsWith('{"index"'));
    const { index, page } = JSON.parse(line ?? "{}");
    expect(index).toContain('href="/__wisent/mailers/AccountMailer/reset"');
    expect(index).toContain('href="/__wisent/mailers/BillingMailer/receipt"');
    expect(page).toContain("Billing receipt");
    expect(page).toContain("Hello Ada Lovelace,");
  });

  it("wisent destroy mailer -y removes both, the layout with the last, byte for byte", async () => {
    await wisent(app, ["d", "mailer", "account", "-y"]);
    expect(readFileSync(join(app, "src/mailers/layout.tsx"), "utf8")).toContain("MailLayout");
    await wisent(app, ["d", "mailer", "billing", "-y"]);
    const after = tree(app);
    const changed = Object.keys({ ...before, ...after }).filter(
      (path) => before[path] !== after[path] && !/^(db\/|dist\/|tmp\/)/.test(path),
    );
    expect(changed).toEqual([]);
  });
});
