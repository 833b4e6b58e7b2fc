import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserTestsSkipped,
  CHROMIUM_ARGS,
  chooseChromium,
  DEFAULT_SYSTEM_CHROMIUM,
  launchChromium,
  SYSTEM_CHROMIUM_ENV,
} from "./chromium.js";

let dir = "";
let server: Server;
let base = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wisent-chooser-"));
  server = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end("<!doctype html><title>probe</title><p id=answer>rendered by Chromium</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("browserTestsSkipped", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["0", false],
    ["yes", false],
    ["1", true],
  ])("WISENT_SKIP_BROWSER=%s skips: %s", (value, skipped) => {
    expect(browserTestsSkipped(value === undefined ? {} : { WISENT_SKIP_BROWSER: value })).toBe(
      skipped,
    );
  });
});

describe("chooseChromium", () => {
  it("looks for Debian's Chromium by default", () => {
    expect(DEFAULT_SYSTEM_CHROMIUM).toBe("/usr/bin/chromium");
  });

  it("takes the system Chromium when it is an executable file", () => {
    const fake = join(dir, "chromium");
    writeFileSync(fake, "#!/bin/sh\n");
    chmodSync(fake, 0o755);
    expect(chooseChromium({ [SYSTEM_CHROMIUM_ENV]: fake })).toEqual({
      source: "system",
      executablePath: fake,
      env: { [SYSTEM_CHROMIUM_ENV]: fake },
    });
  });

  it("takes the npm Chromium when the system one is not executable", () => {
    const notExecutable = join(dir, "plain-file");
    writeFileSync(notExecutable, "");
    const choice = chooseChromium({ [SYSTEM_CHROMIUM_ENV]: notExecutable });
    expect(choice.source).toBe("npm");
  });

  it("unpacks the npm Chromium when there is no system one, with its own libraries", () => {
    const choice = chooseChromium({ [SYSTEM_CHROMIUM_ENV]: join(dir, "missing"), PATH: "/bin" });
    expect(choice.source).toBe("npm");
    expect(() => accessSync(choice.executablePath, constants.X_OK)).not.toThrow();
    const libs = choice.env.LD_LIBRARY_PATH!.split(":")[0]!;
    expect(() => accessSync(join(libs, "libnss3.so"))).not.toThrow();
    expect(choice.env.PATH).toBe("/bin");
  });
});

describe("launchChromium", () => {
  it("passes the flags the closed network and a root user need", () => {
    expect(CHROMIUM_ARGS).toEqual(
      expect.arrayContaining([
        "--headless",
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ]),
    );
  });

  // A browser test like the others: skipped only with WISENT_SKIP_BROWSER=1.
  it.skipIf(browserTestsSkipped())(
    "starts the npm Chromium and renders a page from 127.0.0.1",
    async () => {
      const env = { ...process.env, [SYSTEM_CHROMIUM_ENV]: join(dir, "missing") };
      const browser = await launchChromium(env);
      try {
        const page = await browser.newPage();
        await page.goto(base);
        expect(await page.textContent("#answer")).toBe("rendered by Chromium");
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
