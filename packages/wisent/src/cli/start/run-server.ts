import { pathToFileURL } from "node:url";
import { registerTypeScript, requireAppFile } from "../app-env.js";

/**
 * Runs the app's `src/server.ts` in this process (through tsx), which starts listening and stops
 * on SIGTERM/SIGINT by itself. Resolves once the module has loaded (the server is up).
 */
export async function runServer(cwd: string): Promise<void> {
  const file = requireAppFile({ cwd }, "src/server.ts");
  await registerTypeScript();
  await import(pathToFileURL(file).href);
}
