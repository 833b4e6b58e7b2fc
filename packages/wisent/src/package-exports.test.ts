import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const src = fileURLToPath(new URL(".", import.meta.url));

/** Runs an ES module snippet with plain Node from the repository root (as a user would after npm ci). */
function runPlainNode(source: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "test" },
  });
}

describe("the built package", () => {
  it("imports into plain Node ESM and answers requests in-process (the library API of docs/guides/routing.md)", () => {
    const out = runPlainNode(`
      import { App, Resource } from "wisent";
      class GadgetsResource extends Resource { list(c) { return c.json(["g"]); } }
      class PartsResource extends Resource {}
      const app = new App({ name: "acme" });
      const gadgets = app.resource("/gadgets", new GadgetsResource());
      gadgets.resource("/parts", new PartsResource());
      const list = await app.fetch(new Request("http://localhost/gadgets"));
      const show = await app.fetch(new Request("http://localhost/gadgets/1", { headers: { accept: "application/json" } }));
      console.log(JSON.stringify({
        routes: app.routes().map((r) => r.method + " " + r.path + " " + r.name),
        list: [list.status, await list.json()],
        show: [show.status, (await show.json()).error],
      }));
    `);
    const result = JSON.parse(out);
    expect(result.list).toEqual([200, ["g"]]);
    expect(result.show).toEqual([404, "resource not implemented"]);
    expect(result.routes).toContain("GET /gadgets/{gadget_id}/parts/{part_id}/ gadgetPartPath");
  });

  it("exposes wisent/testing", () => {
    const out = runPlainNode(
      `import * as testing from "wisent/testing"; console.log(Object.keys(testing).length > 0);`,
    );
    expect(out.trim()).toBe("true");
  });

  it("exposes wisent/client: a typed client over app.fetch, its routes from the served document", () => {
    const out = runPlainNode(`
      import { App, Resource } from "wisent";
      import { createClient } from "wisent/client";
      class GadgetsResource extends Resource {
        list(c) { return c.json([{ id: "g1" }]); }
        show(c) { return c.json({ id: c.req.param("gadget_id") }); }
      }
      const app = new App({ name: "acme", api: true });
      app.openapi("/openapi.json");
      app.resource("/gadgets", new GadgetsResource());
      const api = createClient({ fetch: app.fetch });
      const list = await api.gadgets.list();
      const show = await api.gadgets.show({ gadget_id: "g7" });
      const create = await api.gadgets.create({ name: "x" });
      console.log(JSON.stringify([list.data, show.data, create.status, create.error]));
    `);
    expect(JSON.parse(out)).toEqual([
      [{ id: "g1" }],
      { id: "g7" },
      404,
      "resource not implemented",
    ]);
  });

  it("loads ioredis only when a Redis rate-limit store counts", () => {
    const out = runPlainNode(`
      import { createRequire } from "node:module";
      import { App } from "wisent";
      import { rateLimit, redisStore } from "wisent/middleware";
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("/ioredis/"));
      const app = new App({ name: "acme", api: true });
      app.use(rateLimit({ limit: 5, window: 60 }));
      app.get("/", (c) => c.json({}));
      await app.fetch(new Request("http://localhost/"));
      const before = loaded();
      const store = redisStore({ prefix: "wisent-test:exports:" + process.pid + ":" });
      await store.hit("k", 1000);
      await store.close();
      console.log(JSON.stringify([before, loaded()]));
    `);
    expect(JSON.parse(out)).toEqual([false, true]);
  });
});

/** The run-time values (what `Object.keys(await import(specifier))` lists) of each entry, sorted. */
function runtimeExports(): Record<string, string[]> {
  const out = runPlainNode(`
    const result = {};
    for (const s of ${JSON.stringify(["wisent", ...Object.keys(SUBPATHS)])}) {
      result[s] = Object.keys(await import(s)).sort();
    }
    const root = await import("wisent");
    result.deprecated = [];
    for (const s of ${JSON.stringify(Object.keys(SUBPATHS))}) {
      const sub = await import(s);
      for (const k of Object.keys(sub)) if (root[k] === sub[k]) result.deprecated.push(k + " " + s);
    }
    console.log(JSON.stringify(result));
  `);
  return JSON.parse(out) as Record<string, string[]>;
}

/** Each subpath's run-time values: a name added or moved is a decision, made here in review. */
const SUBPATHS: Record<string, string[]> = {
  "wisent/db": [
    "ColumnBuilder",
    "DEFAULT_PER_PAGE",
    "FolderMigrationProvider",
    "MAX_PER_PAGE",
    "StoredDate",
    "TableBuilder",
    "addColumn",
    "addIndex",
    "afterCommit",
    "afterRollback",
    "configurePagination",
    "constraintViolation",
    "createTable",
    "database",
    "decimalPlaces",
    "dependentsOf",
    "dialectOf",
    "dropColumn",
    "dropIndex",
    "dropTable",
    "formatIso",
    "humanizeField",
    "indexName",
    "isUuid",
    "literalLimit",
    "migrateDown",
    "migrateUp",
    "migrationStatus",
    "openDatabase",
    "pageRequest",
    "paginate",
    "paginationHeaders",
    "paginationSettings",
    "renameColumn",
    "storedDateFrom",
    "uuidv7",
  ],
  "wisent/auth": [
    "DeliverMail",
    "EMAIL_VERIFICATION_SECONDS",
    "EmailVerificationTokens",
    "PASSWORD_HASH_PARAMS",
    "PASSWORD_MAX_LENGTH",
    "PASSWORD_MIN_LENGTH",
    "PasswordResetTokens",
    "RESET_TOKEN_SECONDS",
    "RETURN_TO_PARAM",
    "RETURN_TO_SESSION_KEY",
    "SEEN_AT_SESSION_KEY",
    "SESSION_GENERATION_SESSION_KEY",
    "SESSION_LIFETIME_SECONDS",
    "SIGNED_IN_AT_SESSION_KEY",
    "SignInLimits",
    "USER_ID_SESSION_KEY",
    "accessTokenDigest",
    "authentication",
    "authenticationRequired",
    "authorize",
    "bearerToken",
    "currentTokenDigest",
    "defineMail",
    "definePolicy",
    "deliverLater",
    "deliverNow",
    "forbidden",
    "hashPassword",
    "isCommonPassword",
    "mailer",
    "newAccessToken",
    "passwordHashParams",
    "rememberReturnPath",
    "requireAuthentication",
    "safeReturnPath",
    "sessionGeneration",
    "signIn",
    "signOut",
    "takeReturnPath",
    "tokenAuthentication",
    "usesBearerTokens",
    "verifyPassword",
    "verifyWithoutUser",
    "weakPasswordProblem",
  ],
  "wisent/middleware": [
    "CSRF_FIELD",
    "CSRF_HEADER",
    "DEFAULT_BODY_LIMIT",
    "DEFAULT_CONTENT_SECURITY_POLICY",
    "DEFAULT_PERMISSIONS_POLICY",
    "FILTERED_KEY_PARTS",
    "REQUEST_ID_HEADER",
    "RateLimiter",
    "RequestTransaction",
    "Session",
    "allowedHosts",
    "bodyLimit",
    "clientAddress",
    "clientAddressKey",
    "cspNonce",
    "csrf",
    "defaultLogger",
    "errorResponse",
    "filterHeaders",
    "filterParams",
    "flashMessages",
    "forceSSL",
    "hostAuthorization",
    "i18n",
    "isSecureRequest",
    "jsonLogger",
    "memoryStore",
    "noRouteMatched",
    "overrideMethod",
    "paramLogger",
    "pathFormatOf",
    "pendingMigrations",
    "rateLimit",
    "readBeforeTransaction",
    "redisStore",
    "securityHeaders",
    "session",
    "sessionCookieName",
    "silentLogger",
    "transaction",
  ],
  "wisent/jsx": [
    "ButtonTo",
    "CspNonceMeta",
    "CsrfField",
    "CsrfMeta",
    "FileLink",
    "FlashMessages",
    "LiveUpdates",
    "Paginator",
    "domId",
    "escapeHtml",
    "layout",
    "pageOf",
    "pageSlots",
    "pageUrlsOf",
    "rawHtml",
    "renderToString",
    "usePage",
    "usePaths",
    "withPage",
  ],
  "wisent/storage": [
    "AppStorage",
    "DEFAULT_ATTACHMENT_SIZE",
    "DEFAULT_PRUNE_GRACE_MS",
    "DEFAULT_UPLOAD_LIMIT",
    "FILES_PATH",
    "StorageWriteError",
    "appStorage",
    "appStorageNamespace",
    "fileAccept",
    "imageVariant",
    "migrateKeys",
    "openStorage",
    "pruneStorage",
    "storageLocation",
    "storageNamespace",
    "useStorage",
  ],
  "wisent/config": ["ENVIRONMENT_VARIABLES", "currentEnv", "isProduction", "isProductionLike"],
  "wisent/jobs": [
    "JOBS_TABLE",
    "JOB_SCHEDULES_TABLE",
    "createJobTables",
    "defineJob",
    "dropJobTables",
  ],
  "wisent/testing": [
    "CookieJar",
    "TestClient",
    "assertBroadcast",
    "assertEnqueued",
    "assertNoBroadcasts",
    "assertNotEnqueued",
    "assertNothingSent",
    "assertSent",
    "broadcasts",
    "clearBroadcasts",
    "clearEnqueued",
    "clearSentMail",
    "enqueuedJobs",
    "performEnqueued",
    "prepareTestDatabase",
    "removeTestUploads",
    "samplePng",
    "sentMail",
    "signIn",
    "signOut",
    "testClient",
    "testEnvironment",
  ],
  "wisent/client": ["createClient"],
};

/** The root's own values (not counting the deprecated re-exports of moved names). */
const ROOT = [
  "App",
  "DependentRecordsError",
  "Group",
  "HttpError",
  "NOT_IMPLEMENTED",
  "Resource",
  "ResourceBase",
  "ResourceGroup",
  "SingletonResource",
  "StoredAttachment",
  "UploadedFile",
  "ValidationErrors",
  "ValidationFailedError",
  "WisentError",
  "appOrigin",
  "attachment",
  "attachments",
  "decimal",
  "decimalScale",
  "defineModel",
  "documented",
  "isHttpError",
  "isWisentError",
  "negotiateFormat",
  "parseXml",
  "toXml",
  "validate",
];

/** CLI and generator internals, tuning knobs and URL plumbing: exported by no entry. */
const INTERNAL = [
  "formatRouteTable",
  "formatRouteJson",
  "shadowedRoutes",
  "formatShadowedRoute",
  "pluralize",
  "singularize",
  "camelize",
  "names",
  "migrationFileName",
  "cacheStatements",
  "batchedLines",
  "pageUrl",
  "cursorUrl",
  "configuredAppUrl",
  "parseDatabaseUrl",
  "defaultDatabaseUrl",
  "maskDatabaseUrl",
  "nestParams",
  "resourceRoutes",
  "singletonRoutes",
  "validateResourceName",
];

describe("the package's entries", () => {
  const exports = runtimeExports();

  it("the root exports at most 80 run-time values, deprecated re-exports included (types are free)", () => {
    expect(exports.wisent!.length).toBeLessThanOrEqual(80);
  });

  it("the root's own values, and each subpath's, are the reviewed lists", () => {
    const deprecated = new Set(exports.deprecated!.map((line) => line.split(" ")[0]));
    expect(exports.wisent!.filter((name) => !deprecated.has(name))).toEqual(ROOT);
    for (const [subpath, names] of Object.entries(SUBPATHS)) {
      expect(exports[subpath], subpath).toEqual(names);
    }
  });

  it("re-exports a moved name from the root only as deprecated, naming the subpath that has it", () => {
    const source = readFileSync(join(src, "entries/deprecated-root.ts"), "utf8");
    const marked = [
      ...source.matchAll(/@deprecated import from "(wisent\/[a-z]+)"[^*]*\*\/ (\w+)/g),
    ];
    for (const line of exports.deprecated!) {
      const [name] = line.split(" ");
      const mark = marked.find((m) => m[2] === name);
      expect(mark, `${name} is re-exported from the root without @deprecated`).toBeDefined();
      expect(SUBPATHS[mark![1]!], `${name} is not exported by ${mark![1]}`).toContain(name);
    }
  });

  it("exports no CLI or generator internals", () => {
    const everything = Object.values(exports).flat();
    expect(INTERNAL.filter((name) => everything.includes(name))).toEqual([]);
  });

  it('declares in package.json "sideEffects" every module that patches a prototype when imported', () => {
    const pkg = JSON.parse(readFileSync(join(src, "../package.json"), "utf8")) as {
      sideEffects: string[];
    };
    const patching = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return patching(path);
        if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return [];
        const text = readFileSync(path, "utf8");
        return /^(Object\.defineProperty\(\w+\.prototype|\w+\.prototype\.\w+ =)/m.test(text)
          ? [`./dist/${relative(src, path).replace(/\.tsx?$/, ".js")}`]
          : [];
      });
    expect(patching(src).filter((file) => !pkg.sideEffects.includes(file))).toEqual([]);
  });
});
