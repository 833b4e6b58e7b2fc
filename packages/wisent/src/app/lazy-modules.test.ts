/**
 * What a process loads: an app pays at start-up for every package it imports, so the optional
 * ones (server drivers, XML, the CLI's tools) load only when a request or a URL needs them.
 * Each case runs the built package (dist/, what an app imports; `npm run build` makes it) in a
 * fresh plain Node process that records every package it resolved, through ES module imports (a
 * resolve hook) and CommonJS requires (the require cache) alike.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const index = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
/** What a generated app imports besides the root. */
const entries = ["db", "middleware"].map((name) =>
  fileURLToPath(new URL(`../../dist/entries/${name}.js`, import.meta.url)),
);
const OPTIONAL = ["pg", "mysql2", "fast-xml-parser", "esbuild", "tsx", "eta", "ioredis"];

const RECORD_RESOLVED = `
  export async function initialize({ port }) { globalThis.port = port; }
  export async function resolve(specifier, context, next) {
    const result = await next(specifier, context);
    globalThis.port.postMessage(result.url);
    return result;
  }`;

/** The optional packages a fresh process has loaded after `script` ran with the framework imported. */
function optionalPackagesAfter(script: string): string[] {
  const code = `
    import { createRequire, register } from "node:module";
    import { MessageChannel } from "node:worker_threads";
    const { port1, port2 } = new MessageChannel();
    const resolved = [];
    port1.on("message", (url) => resolved.push(url));
    register("data:text/javascript,${encodeURIComponent(RECORD_RESOLVED)}", {
      data: { port: port2 }, transferList: [port2],
    });
    const wisent = {};
    for (const file of ${JSON.stringify([index, ...entries])}) Object.assign(wisent, await import(file));
    ${script}
    await new Promise((r) => setTimeout(r, 50));
    port1.close();
    const loaded = [...resolved, ...Object.keys(createRequire(import.meta.url).cache)];
    const names = ${JSON.stringify(OPTIONAL)}.filter((name) =>
      loaded.some((file) => file.includes("/node_modules/" + name + "/")),
    );
    console.log(JSON.stringify(names));
  `;
  if (!existsSync(index)) throw new Error(`${index} is missing: run npm run build first`);
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    encoding: "utf8",
    timeout: 30_000,
  });
  if (child.status !== 0) throw new Error(`exited ${child.status}: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!);
}

describe("optional packages", () => {
  it("are not loaded by a SQLite app that has answered HTML and JSON", () => {
    const loaded = optionalPackagesAfter(`
      const db = await wisent.openDatabase("sqlite::memory:");
      const app = new wisent.App({ name: "lazy" });
      app.use(wisent.transaction(db));
      app.get("/", (c) => c.respond(200, { html: () => "hi", json: { hi: true }, xml: { hi: true } }));
      for (const accept of ["text/html", "application/json"]) {
        const res = await app.fetch(new Request("http://localhost/", { headers: { accept } }));
        if (res.status !== 200) throw new Error(accept + " answered " + res.status);
      }
      await db.close();
    `);
    expect(loaded).toEqual([]);
  });

  it("load XML on the first XML answer", () => {
    const loaded = optionalPackagesAfter(`
      const app = new wisent.App({ name: "lazy" });
      app.get("/", (c) => c.respond(200, { json: { hi: true }, xml: { hi: true } }));
      const res = await app.fetch(new Request("http://localhost/", { headers: { accept: "application/xml" } }));
      if (!(await res.text()).includes("<hi>true</hi>")) throw new Error("no XML");
    `);
    expect(loaded).toEqual(["fast-xml-parser"]);
  });

  it("load the server drivers when a URL needs them", () => {
    const loaded = optionalPackagesAfter(`
      wisent.database("postgres://nobody@127.0.0.1:1/none");
      wisent.database("mysql://nobody@127.0.0.1:1/none");
    `);
    expect(loaded.sort()).toEqual(["mysql2", "pg"]);
  });
});
