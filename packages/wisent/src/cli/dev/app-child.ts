/**
 * Entry of the app process `wisent dev` runs (behind its dev server): loads the app's
 * `src/server.ts` through tsx. When that fails (a syntax error in a template, an import that
 * does not exist, a throw at start-up) it tells the dev server what failed, over the IPC channel,
 * so the browser gets a page naming the file and line instead of "connection refused".
 * @module
 */
import { pathToFileURL } from "node:url";
import { registerTypeScript, requireAppFile } from "../app-env.js";
import { describeStartFailure } from "./start-failure.js";

/** The app's TypeScript source, loaded through tsx (no build: that is `wisent start`'s). */
async function runSource(cwd: string): Promise<void> {
  const file = requireAppFile({ cwd }, "src/server.ts");
  await registerTypeScript();
  await import(pathToFileURL(file).href);
}

runSource(process.cwd()).catch((error: unknown) => {
  const failure = describeStartFailure(error, process.cwd());
  process.stderr.write(`${failure.summary}\n`);
  if (process.send) process.send({ wisent: "failed", failure }, () => process.exit(1));
  else process.exit(1);
});
