import { Context } from "hono";
import { describe, expect, it } from "vitest";
import {
  bringsContextMethods,
  contextExtension,
  installContextExtensions,
  installMiddlewareExtensions,
  needsMiddleware,
} from "./context-extensions.js";

type Open = Record<string, unknown>;
const proto = Context.prototype as unknown as Open;

describe("Context extensions", () => {
  it("are not installed by importing the package: an App installs them", async () => {
    await import("../index.js");
    expect("respond" in proto).toBe(false);
    expect("tx" in proto).toBe(false);
    const { App } = await import("../app/app.js");
    new App({ name: "shop" });
    expect(typeof proto.respond).toBe("function");
    expect(typeof proto.currentUser).toBe("function");
  });

  it("c.tx() in an app without transaction() names the missing middleware, not a TypeError", async () => {
    const { App } = await import("../app/app.js");
    const app = new App({ name: "shop" });
    app.get("/", async (c) => {
      try {
        await c.tx();
        return c.text("no error");
      } catch (error) {
        return c.text(`${(error as Error).constructor.name}: ${(error as Error).message}`);
      }
    });
    const text = await (await app.fetch(new Request("http://localhost/"))).text();
    expect(text).toBe(
      "WisentError: c.tx() needs the transaction() middleware, which this app does not use: app.use(transaction(db)) before the routes that call it",
    );
  });

  it("a middleware given to an App brings its method, replacing the placeholder", async () => {
    const { App } = await import("../app/app.js");
    const { csrf } = await import("../middleware/csrf/csrf.js");
    const { session } = await import("../middleware/session/session.js");
    const placeholder = proto.csrfToken;
    const app = new App({ name: "shop" });
    app.use(session({ env: "test" }), csrf());
    expect(proto.csrfToken).not.toBe(placeholder);
    // A later App without csrf() leaves the real one (it names session() when it is missing).
    new App({ name: "other" });
    expect(proto.csrfToken).not.toBe(placeholder);
  });

  it("throw naming the property when something else defined it, and install nothing", () => {
    proto.wisentTestTaken = () => "theirs";
    try {
      const mine = contextExtension("wisentTestTaken", () => "mine");
      const other = contextExtension("wisentTestFree", () => "free");
      expect(() => installContextExtensions([other, mine])).toThrow(
        /cannot add c\.wisentTestTaken\(\).*Context\.prototype\.wisentTestTaken is already defined by something else/,
      );
      expect("wisentTestFree" in proto).toBe(false);
    } finally {
      delete proto.wisentTestTaken;
    }
  });

  it("install once: the same method again is fine, a placeholder never replaces a real one", () => {
    const real = contextExtension("wisentTestMethod", () => "real");
    const placeholder = needsMiddleware("wisentTestMethod", "thing()", "app.use(thing())");
    installContextExtensions([placeholder]);
    expect(() => (proto.wisentTestMethod as () => unknown)()).toThrow(
      "c.wisentTestMethod() needs the thing() middleware, which this app does not use: app.use(thing())",
    );
    installMiddlewareExtensions([bringsContextMethods(async () => {}, [real])]);
    installContextExtensions([real, placeholder]);
    expect((proto.wisentTestMethod as () => unknown)()).toBe("real");
    delete proto.wisentTestMethod;
  });
});
