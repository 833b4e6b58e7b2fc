import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** Runs an ES module snippet with plain Node from the repository root (as a user would after npm ci). */
function runPlainNode(source: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "test" },
  });
}

describe("the built package", () => {
  it("imports into plain Node ESM and answers requests in-process (DESIGN.md library API)", () => {
    const out = runPlainNode(`
      import { App, Resource } from "wisent";
      class GadgetsResource extends Resource { list(c) { return c.json(["g"]); } }
      class PartsResource extends Resource {}
      const app = new App({ name: "acme" });
      const gadgets = app.resource("/gadgets", new GadgetsResource());
      gadgets.resource("/parts", new PartsResource());
      const list = await app.fetch(new Request("http://localhost/gadgets"));
      const show = await app.fetch(new Request("http://localhost/gadgets/1", { headers: { accept: "application/json" } }));
      console.log(JSON.stringify({
        routes: app.routes().map((r) => r.method + " " + r.path + " " + r.name),
        list: [list.status, await list.json()],
        show: [show.status, (await show.json()).error],
      }));
    `);
    const result = JSON.parse(out);
    expect(result.list).toEqual([200, ["g"]]);
    expect(result.show).toEqual([404, "resource not implemented"]);
    expect(result.routes).toContain("GET /gadgets/{gadget_id}/parts/{part_id}/ gadgetPartPath");
  });

  it("exposes wisent/testing", () => {
    const out = runPlainNode(
      `import * as testing from "wisent/testing"; console.log(Object.keys(testing).length > 0);`,
    );
    expect(out.trim()).toBe("true");
  });
});
