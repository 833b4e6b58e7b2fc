/** @jsxRuntime classic */
/** @jsx h */

import type { Context } from "hono";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { type Database, openDatabase } from "../data/database.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import "../http/bind.js";
import { HttpError } from "../base/http-error.js";
import { CsrfField, CsrfMeta, FlashMessages } from "../http/components.js";
import type { LogEntry, Logger } from "../http/logger.js";
import "../http/redirect.js";
import { type Layout, layout } from "../http/respond.js";
import { csrf } from "../middleware/csrf/csrf.js";
import { flashMessages } from "../middleware/flash/flash.js";
import { forceSSL } from "../middleware/force-ssl/force-ssl.js";
import { i18n } from "../middleware/i18n/i18n.js";
import { paramLogger } from "../middleware/param-logger/param-logger.js";
import { session } from "../middleware/session/session.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { Resource } from "../resources/resource.js";
import { testClient } from "./test-client.js";

interface Widget {
  id: number;
  title: string;
  description: string | null;
}

const WidgetInput = z.object({
  title: z.string().trim().min(1),
  description: z.string().nullish(),
});

const AppLayout: Layout = ({ page, children }) => (
  <html lang={page.lang}>
    <head>
      <CsrfMeta />
    </head>
    <body>
      <FlashMessages />
      {children}
    </body>
  </html>
);

const Form = ({ widget }: { widget?: Widget }) => (
  <form method="post" action="/widgets">
    <CsrfField />
    <input name="title" value={widget?.title ?? ""} />
  </form>
);

class WidgetsResource extends Resource {
  override async list(c: Context) {
    const widgets = (await (
      await c.tx()
    )
      .selectFrom("widgets")
      .selectAll()
      .orderBy("id")
      .execute()) as Widget[];
    return c.respond(200, {
      html: () => (
        <ul>
          {widgets.map((w) => (
            <li>{w.title}</li>
          ))}
        </ul>
      ),
      json: widgets,
      xml: widgets,
    });
  }
  override async show(c: Context) {
    const widget = await find(c);
    return c.respond(200, { html: () => <h1>{widget.title}</h1>, json: widget, xml: widget });
  }
  new(c: Context) {
    return c.respond(200, { html: () => <Form /> });
  }
  override async create(c: Context) {
    const input = await c.bind(WidgetInput);
    const widget = (await (
      await c.tx()
    )
      .insertInto("widgets")
      .values({ title: input.title, description: input.description ?? null })
      .returningAll()
      .executeTakeFirstOrThrow()) as Widget;
    if (negotiated(c) !== "html") return c.respond(201, { json: widget, xml: widget });
    c.flash("success", c.t("widget.created.success"));
    return c.redirectTo(303, "widgetPath", { widget_id: widget.id });
  }
  override async update(c: Context) {
    const widget = await find(c);
    const input = await c.bind(WidgetInput);
    await (await c.tx())
      .updateTable("widgets")
      .set({ title: input.title })
      .where("id", "=", widget.id)
      .execute();
    c.flash("success", c.t("widget.updated.success"));
    return c.redirectTo(303, "widgetPath", { widget_id: widget.id });
  }
  override async destroy(c: Context) {
    const widget = await find(c);
    await (await c.tx()).deleteFrom("widgets").where("id", "=", widget.id).execute();
    c.flash("success", c.t("widget.destroyed.success"));
    return c.redirectTo(303, "widgetsPath");
  }
}

function negotiated(c: Context) {
  return c.req.header("accept")?.includes("json") ? "json" : "html";
}

async function find(c: Context): Promise<Widget> {
  const id = Number(c.req.param("widget_id"));
  const widget = (await (
    await c.tx()
  )
    .selectFrom("widgets")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst()) as Widget | undefined;
  if (!widget) throw new HttpError(404, `widget ${c.req.param("widget_id")} not found`);
  return widget;
}

let db: Database;
const lines: LogEntry[] = [];
const logger: Logger = { info: (e) => lines.push(e), warn: () => {}, error: (e) => lines.push(e) };

function webApp(env = "test") {
  const app = new App({ name: "shop", env });
  app.use(forceSSL({ enabled: env === "production" }));
  app.use(paramLogger({ logger }));
  app.use(session({ secret: "chain-secret-".padEnd(32, "x"), env }));
  app.use(flashMessages());
  app.use(csrf());
  app.use(transaction(db));
  app.use(
    i18n({
      messages: {
        "en-US": {
          widget: {
            created: { success: "Widget was successfully created." },
            updated: { success: "Widget was successfully updated." },
            destroyed: { success: "Widget was successfully destroyed." },
          },
        },
      },
    }),
  );
  app.use(layout(AppLayout));
  app.resource("/widgets", new WidgetsResource());
  return app;
}

beforeAll(async () => {
  db = await openDatabase("sqlite::memory:");
  await sql`create table widgets (id integer primary key autoincrement, title text not null, description text)`.execute(
    db.kysely,
  );
});
afterAll(async () => {
  await db.close();
});

describe("the web chain in the documented order (force-SSL, logging, session+flash, CSRF, transaction, i18n)", () => {
  const secret = "chain-secret-".padEnd(32, "x");

  it("creates through a form post with the CSRF token, flashes, redirects and shows the flash once", async () => {
    const app = webApp();
    const client = testClient(app, { sessionSecret: secret });
    const form = await client.get("/widgets/new");
    expect(await form.text()).toMatch(
      /<input type="hidden" name="authenticity_token" value="[\w-]{86}"\/>/,
    );
    const created = await client.post("/widgets", { form: { title: "Hammer" } });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toMatch(/^\/widgets\/\d+$/);
    expect(await client.flash()).toEqual({ success: ["Widget was successfully created."] });
    const page = await client.follow(created);
    const html = await page.text();
    expect(html).toContain('<html lang="en-US">');
    expect(html).toContain("Widget was successfully created.");
    expect(html).toContain("<h1>Hammer</h1>");
    expect(await client.flash()).toEqual({});
    expect(await (await client.get(created.headers.get("location")!)).text()).not.toContain(
      "successfully created",
    );
    const logged = lines.find((l) => l.msg === "POST /widgets 303");
    expect(logged?.form).toEqual({ title: "Hammer" });
    expect(JSON.stringify(lines)).not.toMatch(/[\w-]{86}/);
  });

  it("updates and destroys through _method overrides from HTML forms", async () => {
    const app = webApp();
    const client = testClient(app, { sessionSecret: secret });
    const created = await client.post("/widgets", { form: { title: "Saw" } });
    const path = created.headers.get("location")!;
    const updated = await client.post(path, {
      form: { _method: "put", title: "Saw 2" },
      followRedirects: true,
    });
    expect(await updated.text()).toContain("<h1>Saw 2</h1>");
    const destroyed = await client.post(path, { form: { _method: "DELETE" } });
    expect([destroyed.status, destroyed.headers.get("location")]).toEqual([303, "/widgets"]);
    expect((await client.get(path, { headers: { accept: "application/json" } })).status).toBe(404);
  });

  it("refuses a form post without a token and rolls nothing into the database", async () => {
    const app = webApp();
    const before = (await testClient(app)
      .get("/widgets.json")
      .then((r) => r.json())) as Widget[];
    const res = await testClient(app, { sessionSecret: secret }).post("/widgets", {
      form: { title: "Forged" },
      csrf: false,
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: "CSRF token not found in request",
      code: 403,
      error_code: "E_HTTP",
    });
    const after = (await testClient(app)
      .get("/widgets.json")
      .then((r) => r.json())) as Widget[];
    expect(after).toEqual(before);
  });

  it("answers JSON clients without a token, and 422 with field errors", async () => {
    const client = testClient(webApp(), {
      sessionSecret: secret,
      headers: { accept: "application/json" },
    });
    const created = await client.post("/widgets", { json: { title: "Drill", description: null } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ title: "Drill", description: null });
    const invalid = await client.post("/widgets", { json: { title: " " } });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ errors: { title: ["Title can not be blank."] } });
    const crossSite = await client.post("/widgets", {
      json: { title: "x" },
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
  });

  it("answers 406 for New to a JSON client, XML by extension, and errors in the client's format", async () => {
    const client = testClient(webApp(), { sessionSecret: secret });
    const newJson = await client.get("/widgets/new", { headers: { accept: "application/json" } });
    expect(newJson.status).toBe(406);
    const xml = await client.get("/widgets.xml");
    expect(xml.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(await xml.text()).toContain("<widgets");
    const missing = await client.get("/widgets/999999.json");
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { error: "widget 999999 not found", code: 404, error_code: "E_HTTP" },
    ]);
    const badMethod = await client.post("/widgets/1", {
      form: { _method: "TRACE" },
      headers: { accept: "application/json" },
    });
    expect([badMethod.status, (await badMethod.json()).error]).toEqual([
      400,
      'unknown _method "TRACE": use PUT, PATCH or DELETE',
    ]);
  });

  it("redirects plain HTTP to HTTPS first in production", async () => {
    const res = await webApp("production").fetch(new Request("http://shop.example/widgets?page=2"));
    expect([res.status, res.headers.get("location")]).toEqual([
      301,
      "https://shop.example/widgets?page=2",
    ]);
  });
});
