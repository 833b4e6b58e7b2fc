import { Widget } from "../models/widget.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pause = (c) => Math.min(Math.max(Number(c.req.query("ms")) || 0, 0), 10_000);

/**
 * Test-only routes (mounted when RELIABILITY_FAULTS=1): handlers that write and then fail, and
 * slow ones for the shutdown test. A generated app has none of these.
 */
export function mountFaults(app) {
  const faults = app.group("/faults");
  faults.post("/throw", async function ThrowingHandler(c) {
    const attrs = await c.bind();
    await Widget.create(await c.tx(), attrs);
    throw new Error("fault: the handler threw after writing");
  });
  faults.post("/unexpected", async function UnexpectedValueHandler(c) {
    const attrs = await c.bind();
    await Widget.create(await c.tx(), attrs);
    return { title: attrs.title, note: "a plain object, not a Response" };
  });
  faults.post("/nothing", async function NothingHandler(c) {
    const attrs = await c.bind();
    await Widget.create(await c.tx(), attrs);
    return undefined;
  });
  faults.get("/slow", async function SlowHandler(c) {
    await sleep(pause(c));
    return c.json({ slept: pause(c) });
  });
  faults.post("/slow-create", async function SlowCreateHandler(c) {
    const attrs = await c.bind();
    const widget = await Widget.create(await c.tx(), attrs);
    await sleep(pause(c));
    return c.json(widget, 201);
  });
}
