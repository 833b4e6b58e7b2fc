/**
 * `wisent/create-app`: what the create-wisent package's bin runs, so that
 * `npm create wisent@latest myapp -- --api` makes the same app as `wisent new myapp --api`, from
 * the same code, and prints the same next steps.
 * @module
 */
import { processIO } from "../io.js";
import { createApp, NPM_CREATE } from "./create-app.js";

/**
 * Makes a new app from the arguments npm passes to `create-wisent`; resolves with the exit code.
 * @example process.exitCode = await npmCreate(process.argv.slice(2));
 */
export function npmCreate(argv: string[]): Promise<number> {
  return createApp(argv, processIO(), NPM_CREATE);
}
