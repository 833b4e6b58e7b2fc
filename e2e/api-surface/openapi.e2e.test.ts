/**
 * `wisent openapi` on the example shop and on a generated API app: each document passes an
 * independent OpenAPI 3.1 validator, documents every JSON route, and real answers of every
 * operation (driven through `wisent/client`) validate against the schemas it gives for them.
 * The API app runs under `wisent start`; the shop in-process.
 *
 * Needs the built package (`npm run build`).
 */
import { execFile } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { createClient } from "../../packages/wisent/src/client/index.js";
import { freePort, type ServerProcess, startWisent, WISENT_CLI } from "../support/server.js";
import { answerChecker, type Json, openApiErrors, redoclyProblems } from "./openapi-check.js";
import { CLIENT_FLOW, CLIENT_TSCONFIG } from "./openapi-fetch-flow.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const BIN = WISENT_CLI;
const SHOP = join(REPO, "examples/shop");
const run = promisify(execFile);
const TSC = join(REPO, "node_modules/typescript/bin/tsc");

async function wisent(cwd: string, args: string[], env: Record<string, string> = {}) {
  const { DATABASE_URL: _shops, ...inherited } = process.env;
  const { stdout } = await run(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...inherited, NO_COLOR: "1", ...env },
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

/** The JSON operations of the routes table: resource routes but New and Edit. */
function jsonRoutes(routes: { method: string; path: string; handler: string }[]) {
  return (
    routes
      // The resources' operations, and the event stream of live resources (text/event-stream).
      .filter(
        (r) =>
          /Resource\.(List|Show|Create|Update|Destroy)$/.test(r.handler) ||
          r.handler === "liveStream",
      )
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/\/$/, "")}`)
  );
}

function documented(document: Json): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods as object).map((method) => `${method} ${path}`),
  );
}

/** Every operation answered for real, each answer checked against its documented schema. */
async function driveEveryOperation(
  document: Json,
  target: { baseUrl?: string; fetch?: (r: Request) => Response | Promise<Response> },
  create: Record<string, { body: Record<string, unknown>; invalid: Record<string, unknown> }>,
) {
  const checker = answerChecker(document);
  const api = createClient<Json>({ ...target, document }) as Json;
  const checked: string[] = [];
  const expectValid = (
    op: { method: string; path: string },
    res: Response,
    body: unknown,
    label: string,
  ) => {
    const errors = checker.check(
      op.method,
      op.path,
      res.status,
      res.headers.get("content-type") ?? "",
      body,
    );
    expect(errors, `${label}: ${JSON.stringify(body)}`).toEqual([]);
    checked.push(`${label} ${res.status}`);
  };
  const ops = new Map<string, { method: string; path: string }>();
  for (const [path, methods] of Object.entries<Json>(document.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      if (op["x-wisent-resource"] === undefined) continue; // a plain route (an API app's `/`)
      ops.set(`${op["x-wisent-resource"]}.${op["x-wisent-action"]}`, { method, path });
    }
  }
  const ids: Record<string, string> = {};
  // Parents before children: the document lists them in declaration order.
  const stems = [...new Set([...ops.keys()].map((k) => k.split(".")[0]!))];
  for (const stem of stems) {
    // The account singleton (`wisent g authentication`) is driven by the openapi-fetch program.
    if (!ops.has(`${stem}.list`)) continue;
    const parentParams = (path: string) =>
      Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n!, ids[n!]]));
    const createOp = ops.get(`${stem}.create`)!;
    const params = parentParams(createOp.path);
    const nested = createOp.path.includes("{");
    const args = (body: unknown) => (nested ? [params, body] : [body]);
    const created = await api[stem].create(...args(create[stem]!.body));
    expectValid(createOp, created.response, created.data, `${stem}.create`);
    const invalid = await api[stem].create(...args(create[stem]!.invalid));
    expect(invalid.status).toBe(422);
    expectValid(createOp, invalid.response, { errors: invalid.errors }, `${stem}.create`);
    const showOp = ops.get(`${stem}.show`)!;
    const key = [...showOp.path.matchAll(/\{(\w+)\}/g)].at(-1)![1]!;
    ids[key] = created.data.id;
    const member = { ...params, [key]: created.data.id };

    const list = await api[stem].list({ ...params, per_page: 1 });
    expectValid(ops.get(`${stem}.list`)!, list.response, list.data, `${stem}.list`);
    for (const header of checker.headers("get", ops.get(`${stem}.list`)!.path, 200)) {
      expect(list.response.headers.get(header), header).not.toBeNull();
    }
    const shown = await api[stem].show(member);
    expectValid(showOp, shown.response, shown.data, `${stem}.show`);
    const missing = await api[stem].show({
      ...member,
      [key]: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
    });
    expectValid(showOp, missing.response, { error: missing.error, code: 404 }, `${stem}.show`);
    const updated = await api[stem].update(member, create[stem]!.body);
    expectValid(ops.get(`${stem}.update`)!, updated.response, updated.data, `${stem}.update`);
    const destroyed = await api[stem].destroy(member);
    expectValid(ops.get(`${stem}.destroy`)!, destroyed.response, destroyed.data, `${stem}.destroy`);
    // Recreated, for the resources nested in this one.
    const again = await api[stem].create(...args(create[stem]!.body));
    ids[key] = again.data.id;
  }
  return checked;
}

describe("the example shop's OpenAPI document", () => {
  let document: Json;
  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
    document = JSON.parse(await wisent(SHOP, ["openapi"]));
  }, 60_000);

  it("is valid OpenAPI 3.1 and documents every JSON route once, with unique operationIds", async () => {
    expect(await openApiErrors(document)).toEqual([]);
    const routes = JSON.parse(await wisent(SHOP, ["routes", "--json"]));
    expect(documented(document).sort()).toEqual(jsonRoutes(routes).sort());
    const ids = documented(document).map((k) => {
      const [method, path] = k.split(" ");
      return document.paths[path!][method!].operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.info).toEqual({
      title: "shop",
      version: "0.1.0",
      license: { name: "UNLICENSED" },
    });
    expect(document.tags.map((t: { name: string }) => t.name)).toEqual(["widgets", "widgetImages"]);
  });

  it("takes bodies from the model's input schema and answers from its record schema", () => {
    const { schemas } = document.components;
    expect(schemas.WidgetInput.required).toEqual(["title"]);
    expect(schemas.WidgetUpdate.required).toBeUndefined();
    expect(schemas.Widget.required).toEqual([
      "title",
      "description",
      "id",
      "created_at",
      "updated_at",
    ]);
    // The nested image's parent comes from the path, not the body.
    expect(Object.keys(schemas.ImageInput.properties)).toEqual(["caption", "file"]);
    const list = document.paths["/widgets/{widget_id}/images"].get;
    expect(list.parameters.map((p: Json) => p.name ?? p.$ref)).toEqual([
      "widget_id",
      "#/components/parameters/page",
      "#/components/parameters/per_page",
      "#/components/parameters/after",
      "#/components/parameters/before",
    ]);
    // A bad cursor, or a page too deep on a long list, is a 400 naming the cursor parameter.
    expect(list.responses["400"]).toEqual({ $ref: "#/components/responses/BadRequest" });
    expect(document.components.parameters.after).toMatchObject({ in: "query", name: "after" });
    expect(Object.keys(document.paths["/widgets"].post.responses)).toEqual([
      "201",
      "404",
      "405",
      "406",
      "415",
      "422",
      "429",
      "503",
    ]);
  });

  it("is what the app serves at /openapi.json, and every real answer validates against it", async () => {
    process.env.DATABASE_URL = `sqlite:${join(mkdtempSync(join(tmpdir(), "openapi-shop-")), "t.sqlite")}`;
    const { freshApp } = await import("../../examples/shop/test/support.js");
    const { app } = await freshApp();
    // The served document reads the version from the app's folder, where `wisent start` runs it.
    const cwd = process.cwd();
    process.chdir(SHOP);
    const served = await app.fetch(new Request("http://localhost/openapi.json"));
    process.chdir(cwd);
    expect(served.headers.get("content-type")).toBe("application/json");
    expect(await served.json()).toEqual(document);
    const checked = await driveEveryOperation(
      document,
      { fetch: app.fetch },
      {
        widgets: { body: { title: "Lamp", description: null }, invalid: { title: "" } },
        widgetImages: { body: { caption: "Front" }, invalid: { caption: "" } },
      },
    );
    expect(checked).toHaveLength(2 * 7);
    const problem = await app.fetch(
      new Request("http://localhost/widgets/nope", {
        headers: { accept: "application/problem+json" },
      }),
    );
    const body = await problem.json();
    expect(
      answerChecker(document).check(
        "get",
        "/widgets/{widget_id}",
        404,
        problem.headers.get("content-type")!,
        body,
      ),
    ).toEqual([]);
  }, 60_000);
});

describe("a generated API app's OpenAPI document, against the app under wisent start", () => {
  let root: string;
  let dir: string;
  let server: ServerProcess | undefined;
  let apiBaseUrl = "";
  const databaseUrl = () => `sqlite:${join(dir, "db", "openapi.sqlite")}`;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "wisent-openapi-"));
    await wisent(root, ["new", "inventory", "--api", "--dev", "--skip-install"]);
    dir = join(root, "inventory");
    symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
    await wisent(dir, [
      "g",
      "r",
      "gadget",
      "name",
      "count:int",
      "active:bool",
      "released_on:date",
      "notes:nulls.Text",
    ]);
    await wisent(dir, ["g", "r", "part", "label", "--parent", "gadget"]);
    await wisent(dir, ["generate", "authentication"]);
    await wisent(dir, ["migrate"], { DATABASE_URL: databaseUrl() });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("is valid OpenAPI 3.1, documents every JSON route, and real answers validate", async () => {
    const document = JSON.parse(await wisent(dir, ["openapi"]));
    expect(await openApiErrors(document)).toEqual([]);
    const routes = JSON.parse(await wisent(dir, ["routes", "--json"]));
    // An API app's plain routes answer JSON too: `/` and the token routes are documented beside
    // the resources.
    expect(documented(document).sort()).toEqual(
      [...jsonRoutes(routes), "get /", "post /tokens", "delete /tokens/current"].sort(),
    );
    expect(document.components.schemas.GadgetInput.required).toEqual([
      "name",
      "count",
      "released_on",
    ]);

    // A port of its own, not 0: the document's server URL is made from the configured port.
    server = await startWisent(dir, {
      args: ["--port", String(await freePort())],
      env: { DATABASE_URL: databaseUrl() },
    });
    const baseUrl = server.url;
    // The client reads the document the server serves (no `document` option).
    const served = await (await fetch(`${baseUrl}/openapi.json`)).json();
    // The same document, its server URL the one this server listens on.
    expect(served).toEqual({ ...document, servers: [{ url: baseUrl }] });
    apiBaseUrl = baseUrl;
    const checked = await driveEveryOperation(
      served,
      { baseUrl },
      {
        gadgets: {
          body: { name: "Hub", count: 3, active: true, released_on: "2024-05-01", notes: null },
          invalid: { name: "", count: 1, released_on: "2024-05-01" },
        },
        gadgetParts: { body: { label: "Screw" }, invalid: { label: "" } },
      },
    );
    expect(checked).toHaveLength(2 * 7);
  }, 120_000);

  it("passes Redocly's recommended rules with 0 errors, as does the shop's (a web app)", async () => {
    const document = JSON.parse(await wisent(dir, ["openapi"]));
    expect(await redoclyProblems(document)).toEqual({
      errors: [],
      // An app made by `wisent new` is UNLICENSED, which has no SPDX identifier to give.
      warnings: [
        "info-license-strict #/info/license: License object should contain one of the fields: `url`, `identifier`.",
      ],
    });
    const shop = JSON.parse(await wisent(SHOP, ["openapi"]));
    expect((await redoclyProblems(shop)).errors).toEqual([]);
  }, 120_000);

  it("drives sign-up, a token, CRUD with a partial update and the nested resource through openapi-typescript + openapi-fetch, compiled strict without casts; every answer is documented and valid", async () => {
    expect(apiBaseUrl, "the app is served by the test above").not.toBe("");
    const document = await (await fetch(`${apiBaseUrl}/openapi.json`)).json();
    const client = join(dir, "client");
    mkdirSync(client, { recursive: true });
    // openapi-typescript reads a `default` as "always present" unless told otherwise: right for
    // answers, not for a create body, whose defaults the server fills in when a field is left
    // out (docs/guides/api-and-openapi.md). Update bodies have no defaults at all.
    const types = await openapiTS(document, { defaultNonNullable: false });
    writeFileSync(join(client, "schema.d.ts"), astToString(types));
    writeFileSync(join(client, "flow.ts"), CLIENT_FLOW);
    writeFileSync(join(client, "tsconfig.json"), JSON.stringify(CLIENT_TSCONFIG));
    // No cast (`as T`, `<T>x`) and no non-null assertion (`x!.`) in the client's program.
    expect(CLIENT_FLOW).not.toMatch(/\bas [A-Za-z{]|[=(,]\s*<\w+>\w|\w!\./);
    // Strict, no casts: the bodies the document gives are the ones the server takes.
    const compiled = await run(process.execPath, [TSC, "-p", join(client, "tsconfig.json")], {
      cwd: client,
    }).catch((error: { stdout?: string }) => ({ stdout: `tsc failed:\n${error.stdout}` }));
    expect(compiled.stdout).toBe("");
    const { stdout } = await run(
      process.execPath,
      ["--experimental-strip-types", "--no-warnings", join(client, "flow.ts"), apiBaseUrl],
      { cwd: client },
    );
    const answers: {
      method: string;
      path: string;
      status: number;
      contentType: string;
      location: string | null;
      body: unknown;
    }[] = JSON.parse(stdout);
    const checker = answerChecker(document);
    for (const answer of answers) {
      const label = `${answer.method} ${answer.path} ${answer.status}`;
      if (answer.body === null) {
        const documentedAnswer = document.paths[answer.path][answer.method.toLowerCase()];
        expect(documentedAnswer.responses[String(answer.status)], label).toBeDefined();
        continue;
      }
      expect(
        checker.check(answer.method, answer.path, answer.status, answer.contentType, answer.body),
        `${label}: ${JSON.stringify(answer.body)}`,
      ).toEqual([]);
      if (answer.status === 201) expect(answer.location, label).toMatch(/^\//);
    }
    expect(answers.map((a) => `${a.method} ${a.path} ${a.status}`)).toEqual([
      "POST /user 201",
      "POST /tokens 401",
      "POST /tokens 201",
      "GET /user 200",
      "POST /gadgets 201",
      "PUT /gadgets/{gadget_id} 200",
      "POST /gadgets/{gadget_id}/parts 201",
      "GET /gadgets/{gadget_id}/parts 200",
      "DELETE /gadgets/{gadget_id}/parts/{part_id} 200",
      "DELETE /gadgets/{gadget_id} 200",
      "DELETE /tokens/current 204",
      "GET /user 401",
    ]);
  }, 180_000);

  it("prints the document as YAML, or into a file", async () => {
    const document = JSON.parse(await wisent(dir, ["openapi"]));
    expect(parseYaml(await wisent(dir, ["openapi", "--yaml"]))).toEqual(document);
    await wisent(dir, ["openapi", "--out", "openapi.json"]);
    expect(JSON.parse(readFileSync(join(dir, "openapi.json"), "utf8"))).toEqual(document);
  }, 120_000);

  it("filters the routes table by method, name, path and handler, and lists unused operations", async () => {
    const names = async (...args: string[]) =>
      (JSON.parse(await wisent(dir, ["routes", "--json", ...args])) as Json[]).map(
        (r) => `${r.method} ${r.name}`,
      );
    expect(await names("--method", "get", "--name", "/^gadgetPart/")).toEqual([
      "GET gadgetPartsPath",
      "GET gadgetPartPath",
    ]);
    expect(await names("--path", "parts", "--handler", "/\\.(Create|Update)$/")).toEqual([
      "POST gadgetPartsPath",
      "PUT gadgetPartPath",
    ]);
    const table = await wisent(dir, ["routes", "--method", "DELETE"]);
    expect(table.split("\n").slice(2, -1)).toEqual([
      expect.stringMatching(/^DELETE .* \/gadgets\/\{gadget_id\}\/ .* GadgetsResource\.Destroy$/),
      expect.stringMatching(
        /^DELETE .* GadgetPartsResource\.Destroy$|^DELETE .* PartsResource\.Destroy$/,
      ),
      expect.stringMatching(/^DELETE .* \/tokens\/current\/ .* RevokeToken$/),
    ]);
    expect(await names("--unused")).toEqual([]);
    // A hand-written resource serving only its list: the other four answer "not implemented".
    writeFileSync(
      join(dir, "src/actions/drafts.ts"),
      'import type { Context } from "hono";\nimport { Resource } from "wisent";\n' +
        'export class DraftsResource extends Resource<"draft_id"> {\n' +
        "  override list(c: Context) { return c.json([]); }\n}\n",
    );
    appendFileSync(
      join(dir, "src/app.ts"),
      'import { DraftsResource } from "./actions/drafts.js";\napp.resource("/drafts", new DraftsResource());\n',
    );
    expect(await names("--unused")).toEqual([
      "POST draftsPath",
      "GET draftPath",
      "PUT draftPath",
      "DELETE draftPath",
    ]);
    expect(await names("--unused", "--method", "put")).toEqual(["PUT draftPath"]);
    const help = await wisent(dir, ["routes", "--help"]);
    expect(help).toContain("wisent routes --method get --path widgets");
  }, 120_000);
});
