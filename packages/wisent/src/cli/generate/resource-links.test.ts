import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";

const root = mkdtempSync(join(tmpdir(), "wisent-links-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function wisent(cwd: string, ...args: string[]): Promise<string> {
  const { io, stdout, stderr } = memoryIO({ cwd });
  const code = await runCli(args, io);
  expect(code, stdout() + stderr()).toBe(0);
  return stdout();
}

describe("links to generated resources (one manifest for g r and d r)", () => {
  it("adds the nav and home link on g r, the parent's link for a nested one, and removes them on d r", async () => {
    await wisent(root, "new", "shop", "--skip-install");
    const app = join(root, "shop");
    const read = (path: string) => readFileSync(join(app, path), "utf8");
    const freshLinks = read("src/templates/resource-links.tsx");
    expect(read("src/templates/layout.tsx")).toContain("<ResourceLinks />");
    expect(read("src/templates/home/index.tsx")).toContain("<ResourceLinks />");

    expect(await wisent(app, "g", "r", "widget", "title")).toContain(
      "update  src/templates/resource-links.tsx",
    );
    expect(read("src/templates/resource-links.tsx")).toContain(
      '{ label: "Widgets", href: (paths) => paths.widgetsPath() },',
    );
    const parentPage = read("src/templates/widgets/show.tsx");
    await wisent(app, "g", "r", "image", "caption", "--parent", "widget");
    expect(read("src/templates/widgets/show.tsx")).toContain(
      "<a href={paths.widgetImagesPath({ widget_id: widget.id })}>Images</a>",
    );
    expect(read("src/templates/resource-links.tsx")).not.toContain("Images");

    await wisent(app, "d", "r", "image", "-y");
    expect(read("src/templates/widgets/show.tsx")).toBe(parentPage);
    // The parent's page is as generated again: destroying it asks nothing about edits.
    expect(await wisent(app, "d", "r", "widget", "-y")).toContain(
      "update  src/templates/resource-links.tsx",
    );
    expect(read("src/templates/resource-links.tsx")).toBe(freshLinks);
  });

  it("gives the scaffold's checkbox a rule (beside its label) and Cancel no confirmation", async () => {
    const app = join(root, "shop");
    expect(readFileSync(join(app, "public/assets/application.css"), "utf8")).toMatch(
      /\.field-checkbox \{\s*display: flex;\s*align-items: center;/,
    );
    await wisent(app, "g", "r", "gadget", "name", "active:bool");
    const form = readFileSync(join(app, "src/templates/gadgets/new.tsx"), "utf8");
    expect(form).toMatch(/class="btn btn-secondary">\s*Cancel/);
    expect(form).not.toContain("Are you sure?");
  });
});
