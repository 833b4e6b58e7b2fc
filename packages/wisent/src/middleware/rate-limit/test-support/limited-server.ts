/**
 * One worker of the cross-process rate-limit test: an App limited to 10 requests a minute per
 * `X-Client` header, counting in Redis under the prefix given as argv[2]. Prints its URL.
 */
import { App } from "../../../app/app.js";
import { rateLimit } from "../rate-limit.js";
import { redisStore } from "../redis-store.js";

const store = redisStore({ prefix: process.argv[2] });
const app = new App({ name: "limited", env: "test", api: true });
app.use(rateLimit({ limit: 10, window: 60, by: (c) => c.req.header("x-client") ?? "?", store }));
app.get("/", (c) => c.json({ pid: process.pid }));
app.onShutdown(() => store.close());
const server = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(`listening ${server.url}`);
