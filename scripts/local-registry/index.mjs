/**
 * A local npm registry holding this checkout's packed `wisent` and `create-wisent`, every other
 * package proxied from the registry npm is configured with: what `npm create wisent@latest`
 * meets once the packages are published, without publishing them. Used by the registry test
 * (e2e/install/) and by `npm run create-app` (scripts/create-app.mjs).
 *
 * @example
 * const registry = await startLocalRegistry(dir);
 * for (const tarball of packPackages(dir)) await registry.publish(tarball);
 * execFileSync("npm", ["create", "wisent@latest", "myapp"], { env: registry.env() });
 * await registry.stop();
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** The packages of this checkout that the local registry serves itself (never proxied). */
export const LOCAL_PACKAGES = ["wisent", "create-wisent"];
export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

const run = promisify(execFile);

/** The registry npm installs from here (`npm config get registry`), asked outside the checkout. */
export function upstreamRegistry(env = process.env) {
  return execFileSync(NPM, ["config", "get", "registry"], {
    cwd: tmpdir(),
    env: cleanNpmEnv(env),
    encoding: "utf8",
  }).trim();
}

/**
 * `env` without the `npm_*` variables an npm script sets for its children (its package, its
 * prefix, its config), which would point an npm started from it back at this checkout; keeps
 * `npm_config_nodedir` (where native addons find Node's headers).
 */
export function cleanNpmEnv(env = process.env) {
  const clean = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^npm_/i.test(key) && key.toLowerCase() !== "npm_config_nodedir") continue;
    if (key === "INIT_CWD") continue;
    clean[key] = value;
  }
  return clean;
}

/**
 * Packs each of {@link LOCAL_PACKAGES} (from its built files: run `npm run build` first) into
 * `dest`; returns the tarballs' paths.
 */
export function packPackages(dest) {
  mkdirSync(dest, { recursive: true });
  return LOCAL_PACKAGES.map((name) => {
    const out = execFileSync(
      NPM,
      ["pack", "--json", "--ignore-scripts", "--pack-destination", dest],
      { cwd: join(REPO, "packages", name), encoding: "utf8", env: cleanNpmEnv() },
    );
    const [packed] = JSON.parse(out);
    return join(dest, packed.filename);
  });
}

/** The registry's config: storage and users under `dir`, the local packages unproxied. */
function verdaccioConfig(dir, upstream) {
  const local = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  const proxied = { access: "$all", publish: "$authenticated", proxy: "upstream" };
  return {
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 10 } },
    uplinks: { upstream: { url: upstream, timeout: "60s", max_fails: 10, fail_timeout: "10s" } },
    packages: {
      ...Object.fromEntries(LOCAL_PACKAGES.map((name) => [name, local])),
      "@*/*": proxied,
      "**": proxied,
    },
    log: { type: "stdout", format: "pretty", level: "error" },
    web: { enable: false },
    security: { api: { legacy: true } },
  };
}

/** Starts the child process of server.mjs; resolves with its port and the child. */
function spawnServer(configFile) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL("server.mjs", import.meta.url)), configFile],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], env: cleanNpmEnv() },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => fail(new Error("the local registry did not start in 3 minutes")),
      180_000,
    );
    const fail = (error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${error.message}\n${output}`));
    };
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /\{"port":(\d+)\}/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code) => fail(new Error(`the local registry exited (${code})`)));
  });
}

/**
 * Starts a Verdaccio registry on 127.0.0.1 (a random port) with its storage, its user and npm's
 * cache and user config all under `dir`, and signs in a user that may publish.
 * @param {string} dir a folder of its own (a temp dir)
 * @param {{ upstream?: string, cache?: string }} [options] the registry to proxy (default
 *   `npm config get registry`); npm's cache folder (default `dir/npm-cache`)
 */
export async function startLocalRegistry(dir, options = {}) {
  mkdirSync(dir, { recursive: true });
  const upstream = options.upstream ?? upstreamRegistry();
  const configFile = join(dir, "verdaccio.yaml");
  // YAML is a superset of JSON.
  writeFileSync(configFile, JSON.stringify(verdaccioConfig(dir, upstream), null, 2));
  const { child, port } = await spawnServer(configFile);
  const url = `http://127.0.0.1:${port}/`;
  const user = await fetch(`${url}-/user/org.couchdb.user:wisent`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "wisent", password: "local-registry", type: "user", roles: [] }),
  });
  const { token } = await user.json();
  if (!user.ok || !token) {
    child.kill();
    throw new Error(`the local registry refused to add a user (${user.status})`);
  }
  const userconfig = join(dir, "npmrc");
  writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  const cache = options.cache ?? join(dir, "npm-cache");
  const exited = new Promise((resolve) => child.once("exit", resolve));

  return {
    url,
    upstream,
    /**
     * The environment of an npm command run as a user of this registry: the caller's (without
     * an npm script's `npm_*`), with npm's registry, user config and cache set, plus `extra`.
     */
    env(extra = {}) {
      return {
        ...cleanNpmEnv(),
        npm_config_registry: url,
        npm_config_userconfig: userconfig,
        npm_config_cache: cache,
        npm_config_update_notifier: "false",
        npm_config_fund: "false",
        npm_config_audit: "false",
        ...extra,
      };
    },
    /** `npm publish` of a packed tarball to this registry. */
    async publish(tarball) {
      await run(NPM, ["publish", tarball, "--tag", "latest", "--ignore-scripts"], {
        cwd: dir,
        env: this.env(),
      });
    },
    /** Stops the registry; resolves once its process has exited. */
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
