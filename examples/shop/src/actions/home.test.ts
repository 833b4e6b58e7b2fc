import { describe, expect, it } from "vitest";
import { testClient } from "wisent/testing";
import { app } from "../app.js";

describe("HomeHandler", () => {
  it("welcomes the visitor on / inside the layout", async () => {
    const client = testClient(app);
    const res = await client.get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("<h1>Welcome to Shop!</h1>");
    expect(html).toContain('<link rel="stylesheet" href="/assets/application.css"');
    expect(html).toMatch(/<meta name="csrf-token" content="[^"]+"/);
  });

  it("serves the stylesheet and script from public/", async () => {
    const client = testClient(app);
    expect((await client.get("/assets/application.css")).status).toBe(200);
    expect((await client.get("/assets/application.js")).status).toBe(200);
  });
});
