/**
 * Slow (minutes): the generated Dockerfile, proven without a Docker daemon. An app is made as a
 * user makes it (`npm create wisent@latest` from a local registry holding this checkout's packed
 * packages, every other package proxied), `npm ci` accepts the lock file it wrote, a resource
 * with an attachment is generated; then the Dockerfile's own instructions are carried out
 * (e2e/support/dockerfile-runner.ts): the context as its .dockerignore filters it, the build
 * stage's RUN steps, COPY --chown, and the CMD run as an unprivileged user of this machine
 * (nobody) standing for the image's `node`. That server prepares its SQLite database, takes an
 * upload, is restarted, and serves the file again; the HEALTHCHECK passes.
 *
 * Needs the build (`npm run build`) and root (to copy files to another owner and run as it).
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG } from "../../packages/wisent/src/storage/test-support/sample-files.js";
import { NPM } from "../../scripts/local-registry/index.mjs";
import { type LocalRegistry, registryOfThisCheckout } from "../support/checkout-registry.js";
import {
  type BuiltImage,
  buildDockerfile,
  type RunningImage,
  runImage,
  stopImage,
} from "../support/dockerfile-runner.js";
import { freePort } from "../support/server.js";
import { userShell } from "../support/user-shell.js";

const MINUTES = 60_000;
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";
/** The image's user `node` is this machine's nobody: no home, no group of root's, no sudo. */
const NOBODY = { uid: 65534, gid: 65534 };
const asRoot = process.platform === "linux" && userInfo().uid === 0;

let root: string;
let registry: LocalRegistry;
let userEnv: Record<string, string | undefined>;
/** The user's shell: the registry's npm settings, none of the test process's app settings. */
let shell: ReturnType<typeof userShell>;
const sh: ReturnType<typeof userShell>["sh"] = (...args) => shell.sh(...args);
const ok: ReturnType<typeof userShell>["ok"] = (...args) => shell.ok(...args);

/** The image's CMD (as `docker run -p <port>:<port> -e PORT=<port> -e HOST=127.0.0.1`), until it listens. */
function run(image: BuiltImage, port: number): Promise<RunningImage> {
  return runImage(
    image,
    {
      PORT: String(port),
      // The test's network is 127.0.0.1 only; the test is the TLS proxy in front.
      HOST: "127.0.0.1",
      TRUSTED_PROXIES: "127.0.0.1",
    },
    2 * MINUTES,
  );
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-dockerfile-"));
  if (!asRoot) return;
  // The image's user must pass through it to the image's files (mkdtemp makes it root's only).
  chmodSync(root, 0o755);
  registry = await registryOfThisCheckout(root);
  userEnv = registry.env({});
  shell = userShell(userEnv);
}, 5 * MINUTES);

afterAll(async () => {
  await registry?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!asRoot)(
  "the generated Dockerfile, step by step, as an unprivileged user",
  {
    timeout: 10 * MINUTES,
  },
  () => {
    let app: string;
    let image: BuiltImage;
    let port: number;

    it("npm create wisent@latest makes an API on SQLite whose lock npm ci accepts", async () => {
      const apps = join(root, "apps");
      mkdirSync(apps);
      const created = await ok(NPM, ["create", "wisent@latest", "photos", "--", "--api"], apps);
      expect(created.stdout).toContain("Created photos (JSON API, sqlite).");
      app = join(apps, "photos");
      const ci = await sh(NPM, ["ci", "--no-audit", "--no-fund"], app);
      expect(ci.stderr).not.toMatch(/Missing: .* from lock file/);
      expect(ci.code, ci.stderr).toBe(0);
      await ok(NPX, ["wisent", "g", "r", "photo", "caption", "image:attachment"], app);
      // Development's leftovers that must not reach the image.
      mkdirSync(join(app, "storage"), { recursive: true });
      writeFileSync(join(app, "storage/development-upload.png"), PNG);
      mkdirSync(join(app, "tmp"), { recursive: true });
      writeFileSync(join(app, "tmp/local_secret.txt"), "development-secret");
      writeFileSync(join(app, ".env"), "SESSION_SECRET=development-secret\n");
    });

    it("builds by the Dockerfile's instructions, keeping development's files out", async () => {
      const steps: string[] = [];
      const imageRoot = join(root, "image");
      mkdirSync(imageRoot);
      image = await buildDockerfile(app, {
        root: imageRoot,
        users: { node: NOBODY },
        // The build's network: the registry this test serves the packages from.
        buildEnv: {
          npm_config_registry: userEnv.npm_config_registry,
          npm_config_userconfig: userEnv.npm_config_userconfig,
          npm_config_cache: userEnv.npm_config_cache,
          npm_config_update_notifier: "false",
          // Node's headers, which the node image has and node-gyp would otherwise download, for
          // a native module npm finds no prebuilt binary of (better-sqlite3).
          npm_config_nodedir: userEnv.npm_config_nodedir,
        },
        log: (line) => steps.push(line),
      });
      expect(image.nodeVersion, "the image's Node is the one these tests run on").toBe(
        process.versions.node.split(".")[0],
      );
      expect(image.user).toEqual(NOBODY);
      expect(image.skipped.join("\n")).toMatch(/^RUN apt-get update/m);
      for (const kept of ["storage/development-upload.png", "tmp/local_secret.txt", ".env"]) {
        expect(existsSync(join(image.workdir, kept)), kept).toBe(false);
      }
      expect(existsSync(join(image.workdir, "dist/server.js")), steps.join("\n")).toBe(true);
      // What the app writes is its user's; the rest is root's.
      for (const folder of ["storage", "tmp", "db"]) {
        expect(statSync(join(image.workdir, folder)).uid, folder).toBe(NOBODY.uid);
      }
    });

    it("prepares its database, stores an upload as nobody, restarts, and serves the file again", async () => {
      port = await freePort();
      let server = await run(image, port);
      const url = `http://127.0.0.1:${port}`;
      const headers = { accept: "application/json", "x-forwarded-proto": "https" };
      let stored: { url: string; size: number };
      try {
        const body = new FormData();
        body.append("caption", "Kindred");
        body.append("image", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "kindred.png");
        const created = await fetch(`${url}/photos`, { method: "POST", body, headers });
        expect(created.status, `${await created.clone().text()}\n${server.log()}`).toBe(201);
        stored = ((await created.json()) as { image: { url: string; size: number } }).image;
        expect(stored.size).toBe(PNG.length);
        const file = await fetch(`${url}${stored.url}`, { headers });
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
        // The HEALTHCHECK, as Docker runs it in the container.
        const [probe, ...probeArgs] = image.healthcheck ?? [];
        const healthy = await new Promise<number>((resolve) =>
          execFile(
            join(image.root, "usr/local/bin", probe ?? "node"),
            probeArgs,
            { env: { ...image.env, PORT: String(port) }, uid: NOBODY.uid, gid: NOBODY.gid },
            (error) => resolve(error ? 1 : 0),
          ),
        );
        expect(healthy).toBe(0);
      } finally {
        expect(await stopImage(server.child)).toBe(0);
      }
      const database = join(image.workdir, "db/production.sqlite");
      expect(statSync(database).uid).toBe(NOBODY.uid);
      // docker restart: the same folders (volumes), a new process.
      server = await run(image, port);
      try {
        const again = await fetch(`${url}${stored.url}`, { headers });
        expect(again.status).toBe(200);
        expect(Buffer.from(await again.arrayBuffer())).toEqual(PNG);
        const list = (await (await fetch(`${url}/photos`, { headers })).json()) as unknown[];
        expect(list).toHaveLength(1);
        expect(server.log()).toContain("nothing to migrate");
      } finally {
        expect(await stopImage(server.child)).toBe(0);
      }
      expect(readFileSync(join(image.workdir, "package.json"), "utf8")).toContain(
        '"database": "sqlite"',
      );
    });
  },
);
