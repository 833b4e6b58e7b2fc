import { join, relative } from "node:path";
import { requireAppFile } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import { buildApp } from "../build/build-app.js";
import { warmCompileCache } from "../build/warm-compile-cache.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent build",
  summary:
    "Compiles the app in this folder to plain JavaScript in dist/ with esbuild: src/server.ts and\nsrc/app.ts bundled with their dependencies (database drivers and native addons stay in\nnode_modules), each migration compiled on its own, locale files copied, source maps beside\nthem. `wisent start` and `wisent migrate` run the build; no TypeScript is needed in production.",
  options: [],
  examples: [
    ["wisent build", "dist/server.js, dist/app.js, dist/migrations/*.js"],
    ["GO_ENV=production wisent start", "runs dist/server.js"],
  ],
};

/** `wisent build`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(argv, {}, 0);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    requireAppFile(io, "src/server.ts");
    const out = new Output(io);
    const { files, ms } = await buildApp(io.cwd);
    for (const file of files) {
      if (!file.endsWith(".map") && !file.endsWith(".wisent-build.json")) {
        out.action("create", relative(".", file));
      }
    }
    out.line(`built dist/ in ${(ms / 1000).toFixed(2)} s`);
    const bundles = files.filter((file) => /^dist\/(server|app)\.js$/.test(file));
    await warmCompileCache(bundles.map((file) => join(io.cwd, file)));
    return 0;
  });
}
