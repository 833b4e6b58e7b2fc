import type { CliIO } from "../io.js";
import { createApp, createAppHelp, WISENT_NEW } from "../new/create-app.js";

export const help = createAppHelp(WISENT_NEW);

/** `wisent new <path> ...`. */
export function run(argv: string[], io: CliIO): Promise<number> {
  return createApp(argv, io, WISENT_NEW);
}
