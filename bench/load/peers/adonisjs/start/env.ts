import { Env } from "@adonisjs/core/env";

export default await Env.create(new URL("../", import.meta.url), {
  NODE_ENV: Env.schema.enum(["development", "production", "test"] as const),
  PORT: Env.schema.number(),
  HOST: Env.schema.string({ format: "host" }),
  APP_KEY: Env.schema.secret(),
  LOG_LEVEL: Env.schema.string(),
  SESSION_DRIVER: Env.schema.enum(["cookie", "memory"] as const),
  // `sqlite:<file>` or a postgres:// URL (the bench's DATABASE_URL).
  DATABASE_URL: Env.schema.string(),
});
