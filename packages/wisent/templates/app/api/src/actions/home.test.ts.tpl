import { describe, expect, it } from "vitest";
import { testClient } from "wisent/testing";
import { app } from "../app.js";

describe("HomeHandler", () => {
  it("answers / with a JSON welcome", async () => {
    const res = await testClient(app).get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ message: "Welcome to @@name@@!" });
  });

  it("sets no session cookie", async () => {
    const res = await testClient(app).get("/");
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});
