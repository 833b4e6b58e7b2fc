/** Image variants in an app without sharp installed: the error names the npm command. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, expect, it, vi } from "vitest";
import { openStorage } from "./app-storage.js";
import { storedVariant } from "./image-variants.js";

vi.mock("../base/require-dependency.js", async (original) => {
  const real = await original<typeof import("../base/require-dependency.js")>();
  return {
    ...real,
    requireDependency: (name: string) => {
      if (name === "sharp") throw new real.MissingDependencyError(name);
      return real.requireDependency(name);
    },
  };
});

const root = mkdtempSync(join(tmpdir(), "wisent-no-sharp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("fails naming `npm install sharp`, and stores nothing", async () => {
  const storage = openStorage({ driver: "fs", root });
  const key = "0193a1b2-0000-7000-8000-000000000001.png";
  await storage.put(key, Readable.from([Buffer.from("png")]), {
    contentType: "image/png",
    size: 3,
  });
  await expect(storedVariant(storage, key, "image/png", "thumb")).rejects.toThrow(
    "an image variant needs sharp: npm install sharp",
  );
  expect(await storage.exists(`variants/${key}/thumb.webp`)).toBe(false);
});
