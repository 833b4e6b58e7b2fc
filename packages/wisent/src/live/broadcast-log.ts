import { currentEnv } from "../config/settings.js";

/**
 * A broadcast this process made: the stream, and `refresh`, `created`, `updated`, `destroyed`,
 * a row's `append`, `prepend`, `replace` or `remove`, or `visit`.
 */
export interface Broadcast {
  readonly stream: string;
  readonly action: string;
  /**
   * The event's data: the record's JSON (`created`, `updated`), `{"id"}` (`destroyed`), the
   * Turbo Stream element (the others but `refresh`).
   */
  readonly data?: string;
}

/**
 * The broadcasts of this process, kept in the test environment only (`wisent/testing`'s
 * `assertBroadcast` reads them), noted when a commit makes them (a refresh before its debounce).
 */
const log: Broadcast[] = [];
let tracking: boolean | undefined;

/** Notes a broadcast (in the test environment). */
export function noteBroadcast(broadcast: Broadcast): void {
  tracking ??= currentEnv() === "test";
  if (tracking) log.push(broadcast);
}

/** The broadcasts noted so far, oldest first. */
export function broadcastsHere(): readonly Broadcast[] {
  return [...log];
}

/** Forgets the broadcasts noted so far. */
export function forgetBroadcasts(): void {
  log.length = 0;
}
