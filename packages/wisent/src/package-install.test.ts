/**
 * What an install of wisent, or of a new app, prints. Every package an install of `wisent` can bring (its dependencies, optional dependencies and
 * peer dependencies, optional ones included, and theirs in turn, as the repository's
 * package-lock.json resolves them) allows every Node version `wisent` supports: a narrower
 * `engines` range prints npm's EBADENGINE on a supported Node (flydrive 2 wanted Node 24 while
 * Wisent says 22.3). The ranges Wisent states itself are one: the package's. And the packages
 * a new app lets run install scripts (npm 11's `allowScripts`) are approved at the monorepo's
 * root too, where npm reads the policy for the example app, a workspace.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { WISENT_PACKAGE_ROOT } from "./cli/new/versions.js";

interface LockEntry {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
}

const REPO = join(WISENT_PACKAGE_ROOT, "..", "..");
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const lock = readJson(join(REPO, "package-lock.json")) as {
  packages: Record<string, LockEntry>;
};
const wisent = readJson(join(WISENT_PACKAGE_ROOT, "package.json")) as {
  engines: { node: string };
};

/** Where npm puts `name` for the package at `from` (node_modules folders, nearest first). */
function resolve(name: string, from: string): string | undefined {
  let at = from;
  for (;;) {
    const candidate = `${at === "" ? "" : `${at}/`}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (at === "") return undefined;
    const nested = at.lastIndexOf("/node_modules/");
    at = nested === -1 ? "" : at.slice(0, nested);
  }
}

/**
 * The platforms Node publishes 64-bit builds of: a platform package (sharp's prebuilt
 * binaries) installs only where its `os` and `cpu` match, and is checked where it can.
 */
const PLATFORMS = ["linux", "darwin", "win32"].flatMap((os) =>
  ["x64", "arm64"].map((cpu) => ({ os, cpu })),
);
const installsSomewhere = (entry: LockEntry) =>
  PLATFORMS.some(
    ({ os, cpu }) => (entry.os?.includes(os) ?? true) && (entry.cpu?.includes(cpu) ?? true),
  );

/**
 * Every package of the lock file an install of wisent, or of a new app (the example shop, made
 * by `wisent new`: wisent and the dev tools, Vitest's Vite among them), can bring, by location.
 */
function wisentClosure(): Map<string, LockEntry> {
  const found = new Map<string, LockEntry>();
  const queue: [name: string, from: string][] = [];
  const follow = (entry: LockEntry, at: string) => {
    const names = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...entry.peerDependencies,
    };
    for (const name of Object.keys(names)) queue.push([name, at]);
  };
  follow(lock.packages["packages/wisent"]!, "packages/wisent");
  const shop = lock.packages["examples/shop"]!;
  follow(
    { ...shop, dependencies: { ...shop.dependencies, ...shop.devDependencies } },
    "examples/shop",
  );
  while (queue.length > 0) {
    const [name, from] = queue.shift()!;
    // An optional peer nobody here installed (flydrive's @google-cloud/storage): not in the lock.
    const at = resolve(name, from);
    if (at === undefined || found.has(at)) continue;
    const entry = lock.packages[at]!;
    found.set(at, entry);
    // What a package that installs on no platform Node supports would bring is never installed
    // (rolldown's wasm32 binding).
    if (installsSomewhere(entry)) follow(entry, at);
  }
  return found;
}

describe("Node versions", () => {
  it("every package an install of wisent or of a new app brings allows every Node wisent supports", () => {
    const supported = wisent.engines.node;
    const closure = wisentClosure();
    expect(closure.size).toBeGreaterThan(50);
    expect([...closure.keys()]).toContain(resolve("flydrive", "packages/wisent"));
    expect([...closure.keys()]).toContain(resolve("vite", "examples/shop"));
    const narrower: string[] = [];
    for (const [at, entry] of closure) {
      const node = Array.isArray(entry.engines)
        ? undefined
        : (entry.engines as LockEntry["engines"] & { node?: string })?.node;
      if (node === undefined || !installsSomewhere(entry)) continue;
      if (!semver.subset(supported, node))
        narrower.push(`${at}@${entry.version} wants node ${node}`);
    }
    expect(narrower, `wisent supports node ${supported}`).toEqual([]);
  });

  it("is stated once: the monorepo, create-wisent and a new app say what wisent says", () => {
    const node = wisent.engines.node;
    const root = readJson(join(REPO, "package.json")) as { engines: { node: string } };
    const create = readJson(join(REPO, "packages/create-wisent/package.json")) as {
      engines: { node: string };
    };
    expect(root.engines.node).toBe(node);
    expect(create.engines.node).toBe(node);
    const template = readFileSync(
      join(WISENT_PACKAGE_ROOT, "templates/app/common/package.json.eta"),
      "utf8",
    );
    // The template writes wisent's own range (versions.ts), never a number of its own.
    expect(template).toMatch(/"node": "<%= it.nodeEngines %>"/);
  });
});

describe("install scripts (npm 11's allowScripts)", () => {
  it("the monorepo root approves every package a new app approves", () => {
    const template = JSON.parse(
      readFileSync(
        join(WISENT_PACKAGE_ROOT, "templates/app/common/package.json.eta"),
        "utf8",
      ).replace(/"<%= it\.\w+ %>"/g, '""'),
    ) as { allowScripts: Record<string, boolean> };
    const root = readJson(join(REPO, "package.json")) as { allowScripts: Record<string, boolean> };
    expect(Object.keys(template.allowScripts).sort()).toEqual(["better-sqlite3", "esbuild"]);
    expect(root.allowScripts).toMatchObject(template.allowScripts);
    // The example app is a workspace: npm ignores a workspace's allowScripts, and warns.
    const shop = readJson(join(REPO, "examples/shop/package.json")) as Record<string, unknown>;
    expect(shop.allowScripts).toBeUndefined();
  });
});
