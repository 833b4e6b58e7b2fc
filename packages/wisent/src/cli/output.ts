/**
 * What a person reads at a glance: right-aligned, coloured action verbs before each path
 * (`    create  src/models/widget.ts`), errors and a spinner for long steps. Colour only when
 * {@link CliIO.color} says so; the spinner animates only on a TTY.
 * @module
 */
import { colorize, type PaintStyle } from "../base/colorize.js";
import type { CliIO } from "./io.js";

/** What happened to a file (or which command ran). */
export type ActionVerb =
  | "create"
  | "update"
  | "remove"
  | "skip"
  | "identical"
  | "exists"
  | "force"
  | "conflict"
  | "run"
  | "build"
  | "revert"
  | "done";

type Style = PaintStyle;

const VERB_STYLE: Record<ActionVerb, Style> = {
  create: ["green", "bold"],
  update: ["yellow", "bold"],
  force: ["yellow", "bold"],
  remove: ["red", "bold"],
  conflict: ["red", "bold"],
  skip: ["blue", "bold"],
  identical: ["blue", "bold"],
  exists: ["blue", "bold"],
  run: ["magenta", "bold"],
  build: ["magenta", "bold"],
  revert: ["red", "bold"],
  done: ["green", "bold"],
};

/** Width of the verb column: the longest verb ("identical") plus Rails' left margin. */
const VERB_WIDTH = 12;

/**
 * `text` in `style` when colour is on, else unchanged.
 * @example paint(io, "red", "failed")
 */
export function paint(io: Pick<CliIO, "color">, style: Style, text: string): string {
  return io.color ? colorize(style, text) : text;
}

/**
 * One action line, verb right-aligned in a fixed column so the paths line up.
 * @example formatAction("create", "src/models/widget.ts", false) // "      create  src/models/widget.ts"
 */
export function formatAction(verb: ActionVerb, subject: string, color: boolean): string {
  const padded = verb.padStart(VERB_WIDTH);
  return `${color ? colorize(VERB_STYLE[verb], padded) : padded}  ${subject}`;
}

/** A running long step; end it with `succeed` or `fail` (both are idempotent). */
export interface Spinner {
  /** Replace the label (e.g. progress). */
  update(label: string): void;
  succeed(message?: string): void;
  fail(message?: string): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Writes a command's human-readable output to a {@link CliIO}. */
export class Output {
  readonly #io: CliIO;

  constructor(io: CliIO) {
    this.#io = io;
  }

  /**
   * `    create  src/models/widget.ts` on stdout.
   * @example out.action("update", "src/app.ts");
   */
  action(verb: ActionVerb, subject: string): void {
    this.#io.stdout.write(`${formatAction(verb, subject, this.#io.color)}\n`);
  }

  /** A plain line on stdout. */
  line(text = ""): void {
    this.#io.stdout.write(`${text}\n`);
  }

  /** A bold line on stdout (headings, "Next steps"). */
  heading(text: string): void {
    this.line(paint(this.#io, "bold", text));
  }

  /** A dimmed line on stdout (hints, commands to run next). */
  hint(text: string): void {
    this.line(paint(this.#io, "dim", text));
  }

  /** `warning: ...` on stderr. */
  warn(message: string): void {
    this.#io.stderr.write(`${paint(this.#io, ["yellow", "bold"], "warning:")} ${message}\n`);
  }

  /** `error: ...` on stderr. */
  error(message: string): void {
    this.#io.stderr.write(`${paint(this.#io, ["red", "bold"], "error:")} ${message}\n`);
  }

  /**
   * Starts a long step. On a TTY a spinner animates in place; elsewhere one `run` line is
   * printed now and one `done` (or an error) line at the end, so logs stay readable.
   * @example
   * const s = out.spinner("npm install");
   * try { await install(); s.succeed("dependencies installed"); } catch (e) { s.fail(); throw e; }
   */
  spinner(label: string): Spinner {
    const io = this.#io;
    let current = label;
    let ended = false;
    if (!io.isTTY) {
      this.action("run", label);
      const end = (ok: boolean, message?: string) => {
        if (ended) return;
        ended = true;
        if (ok) this.action("done", message ?? current);
        else this.error(message ?? `${current} failed`);
      };
      return {
        update: (text) => {
          current = text;
        },
        succeed: (message) => end(true, message),
        fail: (message) => end(false, message),
      };
    }
    let frame = 0;
    const draw = () => {
      const glyph = paint(io, "cyan", FRAMES[frame % FRAMES.length] as string);
      io.stdout.write(`\r\x1b[2K${" ".repeat(VERB_WIDTH - 1)}${glyph}  ${current}`);
      frame += 1;
    };
    draw();
    const timer = setInterval(draw, 80);
    timer.unref();
    const end = (ok: boolean, message?: string) => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      io.stdout.write("\r\x1b[2K");
      if (ok) this.action("done", message ?? current);
      else this.error(message ?? `${current} failed`);
    };
    return {
      update: (text) => {
        current = text;
      },
      succeed: (message) => end(true, message),
      fail: (message) => end(false, message),
    };
  }
}
