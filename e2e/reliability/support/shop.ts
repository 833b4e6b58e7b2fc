/**
 * The app under test: examples/shop as the CLI generated it. `startShop` runs it as a user does
 * (`wisent start` in its folder), or, when a test needs the test-only fault routes or listen
 * options, through `../shop-with-faults/server.mjs`, which imports the shop's own build
 * (`dist/app.js`) and adds them through the public App API. Either way on 127.0.0.1, port 0.
 * @module
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import {
  EXAMPLE_SHOP,
  type ServerProcess,
  startServerProcess,
  startWisent,
  WISENT_CLI,
} from "../../support/server.js";
import { sqliteDatabase, type TestDatabase } from "./databases.js";

const FAULTS_ENTRY = fileURLToPath(new URL("../shop-with-faults/server.mjs", import.meta.url));

export interface ShopOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Mount the test-only `/faults/*` routes (handlers that throw, return a non-Response, sleep). */
  faults?: boolean;
  /** Listen options the generated server leaves at their defaults. */
  requestTimeoutMs?: number;
  drainTimeoutMs?: number;
}

/** The shop on a free port, in the test environment, with `databaseUrl` (already migrated). */
export async function startShop(options: ShopOptions): Promise<ServerProcess> {
  const env = {
    GO_ENV: "test",
    NODE_ENV: "test",
    PORT: "0",
    DATABASE_URL: options.databaseUrl,
    SESSION_SECRET: "reliability-session-secret-0123456789abcdef",
    ...options.env,
  };
  const custom = options.faults || options.requestTimeoutMs || options.drainTimeoutMs;
  if (!custom) return startWisent(EXAMPLE_SHOP, { env });
  // `wisent routes` loads the app from its build, building it first when it is missing or stale
  // (under the build lock other test files' `wisent start` share).
  await promisify(execFile)(process.execPath, [WISENT_CLI, "routes"], {
    cwd: EXAMPLE_SHOP,
    env: { ...process.env, ...env },
  });
  return startServerProcess({
    args: [FAULTS_ENTRY],
    cwd: EXAMPLE_SHOP,
    env: {
      ...env,
      REQUEST_TIMEOUT_MS: options.requestTimeoutMs ? String(options.requestTimeoutMs) : undefined,
      DRAIN_TIMEOUT_MS: options.drainTimeoutMs ? String(options.drainTimeoutMs) : undefined,
    },
  });
}

/** The shop of {@link useShopOnSqlite}, read inside tests (once `beforeAll` has started it). */
export interface ShopUnderTest {
  readonly server: ServerProcess;
  readonly db: TestDatabase;
}

/**
 * The shop on a fresh, migrated SQLite database for the enclosing `describe`: started in
 * `beforeAll`, stopped and its database dropped in `afterAll`.
 *
 * @example
 * const shop = useShopOnSqlite({ faults: true });
 * it("answers", async () => expect((await send(shop.server.url, "/")).status).toBe(200));
 */
export function useShopOnSqlite(options: Omit<ShopOptions, "databaseUrl"> = {}): ShopUnderTest {
  let db: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    db = await sqliteDatabase();
    server = await startShop({ ...options, databaseUrl: db.url });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the shop is not started (read it inside a test)");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get db() {
      return started(db);
    },
  };
}
