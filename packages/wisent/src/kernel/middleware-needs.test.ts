import { describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { csrf } from "../middleware/csrf/csrf.js";
import { flashMessages } from "../middleware/flash/flash.js";
import { session } from "../middleware/session/session.js";
import { phased } from "./compose.js";
import { checkMiddlewareNeeds, needsBefore, provides } from "./middleware-needs.js";

describe("middleware that needs another before it", () => {
  it("is refused at start-up, naming the missing middleware", () => {
    const app = new App({ name: "shop" });
    expect(() => app.use(csrf())).toThrow(
      "csrf() needs the session() middleware before it, and this app's routes do not have it there: app.use(session()) before app.use(csrf())",
    );
    const group = new App({ name: "shop" });
    const admin = group.group("/admin");
    admin.use(flashMessages());
    expect(() => admin.get("/", (c) => c.text("x"))).toThrow(
      /flashMessages\(\) needs the session\(\) middleware before it/,
    );
  });

  it("is accepted after it, in the App's stack or a group's", () => {
    const app = new App({ name: "shop" });
    app.use(session({ env: "test" }));
    app.use(csrf(), flashMessages());
    app.get("/", (c) => c.text("x"));
    const admin = app.group("/admin");
    admin.use(flashMessages());
    expect(() => admin.get("/", (c) => c.text("x"))).not.toThrow();
  });

  it("checks the order, not only the presence", () => {
    const first = provides(phased({}), "first()");
    const second = needsBefore(phased({}), "second()", "first()", "first, then second");
    expect(() => checkMiddlewareNeeds([first, second])).not.toThrow();
    expect(() => checkMiddlewareNeeds([second, first])).toThrow(
      "second() needs the first() middleware before it, and this app's routes do not have it there: first, then second",
    );
  });
});
