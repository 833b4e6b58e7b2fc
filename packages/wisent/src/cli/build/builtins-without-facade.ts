/**
 * An esbuild plugin for the bundles Wisent makes (the app's `dist/server.js` and `dist/app.js`,
 * the package's own bundle): each import of a Node built-in (`node:http`, `fs`, ...) reads the
 * module with `process.getBuiltinModule`, and each imported name is one property read, instead of
 * Node making the module's ES facade.
 *
 * Why: the facade copies every export of the module when it is made, which runs every lazy getter
 * on it. `node:http`'s `WebSocket`, `CloseEvent` and `MessageEvent` load undici (its fetch, about
 * 25 ms of a start), `node:crypto`'s `webcrypto` loads WebCrypto, `node:stream/web`'s
 * compression streams load zlib; none of which an app uses before its first request needs them
 * (bench/load/cold-start.mjs and cold-start-phases.mjs show the start with and without).
 *
 * Each export is a `/* @__PURE__ *\/` read, so esbuild drops the ones nothing imports; a default
 * import is the module itself, as with the facade. The names offered are the module's enumerable
 * keys on the Node running the build (what the facade offers too), so importing a name the
 * module does not have still fails at build time. `process.getBuiltinModule` came with Node 22.3,
 * hence the package's `engines`.
 */
import { builtinModules, createRequire } from "node:module";
import type { Plugin } from "esbuild";

const require = createRequire(import.meta.url);

const NAMESPACE = "wisent-builtin";
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The module text standing for built-in `name` (`"http"`, `"fs/promises"`). */
function builtinModuleSource(name: string): string {
  const specifier = `node:${name}`;
  const names = Object.keys(require(specifier) as object).filter(
    (key) => key !== "default" && IDENTIFIER.test(key),
  );
  return [
    `const __builtin = process.getBuiltinModule(${JSON.stringify(specifier)});`,
    "const __read = (name) => __builtin[name];",
    "export default __builtin;",
    ...names.map((key) => `export const ${key} = /* @__PURE__ */ __read(${JSON.stringify(key)});`),
  ].join("\n");
}

/** Whether `path` names a Node built-in that can be loaded this way. */
function builtinName(path: string): string | undefined {
  const name = path.startsWith("node:") ? path.slice(5) : path;
  return builtinModules.includes(name) ? name : undefined;
}

/**
 * The plugin: `plugins: [builtinsWithoutFacade()]` in an esbuild build with `bundle: true`,
 * `format: "esm"` and `platform: "node"`.
 * @example await build({ entryPoints: ["src/server.ts"], bundle: true, format: "esm", platform: "node", plugins: [builtinsWithoutFacade()] });
 */
export function builtinsWithoutFacade(): Plugin {
  return {
    name: "wisent-builtins-without-facade",
    setup(build) {
      build.onResolve({ filter: /^(node:)?[a-z][a-z0-9_/]*$/ }, (args) => {
        // A CommonJS dependency's require() stays a require() (it makes no facade).
        if (args.kind !== "import-statement" && args.kind !== "dynamic-import") return undefined;
        const name = builtinName(args.path);
        return name === undefined ? undefined : { path: name, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: builtinModuleSource(args.path),
        loader: "js",
      }));
    },
  };
}
