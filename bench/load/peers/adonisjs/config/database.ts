import { defineConfig } from "@adonisjs/lucid";
import env from "#start/env";

const url = env.get("DATABASE_URL");

export default defineConfig({
  connection: "main",
  connections: {
    main: url.startsWith("sqlite:")
      ? {
          client: "better-sqlite3",
          connection: { filename: url.slice("sqlite:".length) },
          useNullAsDefault: true,
        }
      : { client: "pg", connection: url, pool: { min: 1, max: 10 } },
  },
});
