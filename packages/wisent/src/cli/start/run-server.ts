import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WisentError } from "../../base/wisent-error.js";
import { BUILD_DIR, BUILD_SERVER } from "../build/build-state.js";
import { mapBuildStackTraces } from "./build-stack-traces.js";

/**
 * Runs the app's compiled server (`dist/server.js`, made by `wisent build`; the caller makes
 * sure it is current) in this process; it starts listening and stops on SIGTERM/SIGINT by itself.
 * Resolves once the module has loaded (the server is up). Stack traces name the `.ts` lines
 * through the build's source maps.
 */
export async function runServer(cwd: string): Promise<void> {
  const file = join(cwd, BUILD_SERVER);
  if (!existsSync(file)) {
    throw new WisentError(
      "E_NOT_AN_APP",
      `no ${BUILD_SERVER} in ${cwd}: run \`wisent build\` first`,
    );
  }
  mapBuildStackTraces(join(cwd, BUILD_DIR));
  await import(pathToFileURL(file).href);
}
