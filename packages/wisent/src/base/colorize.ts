/**
 * ANSI colour for text whose caller has already decided that colour is wanted (the CLI's
 * `io.color`, the development logger's `color` flag).
 * @module
 */
import { styleText } from "node:util";

/** A style `node:util`'s `styleText` accepts: a colour, a modifier, or several. */
export type PaintStyle = Parameters<typeof styleText>[0];

/**
 * Wraps `text` in the ANSI codes of `style`, always.
 *
 * Node 22.13+ and 24 make `styleText` check `process.stdout` itself and drop the codes when it is
 * not a TTY; the decision is the caller's here (written to other streams, or forced by
 * `FORCE_COLOR`), so that check is turned off.
 * @example colorize(["green", "bold"], "create") // "\u001b[32m\u001b[1mcreate\u001b[22m\u001b[39m"
 */
export function colorize(style: PaintStyle, text: string): string {
  return styleText(style, text, { validateStream: false });
}
