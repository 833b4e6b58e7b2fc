/**
 * Test helpers for live resources (`live: true`), in the style of turbo-rails'
 * `assert_turbo_stream_broadcasts`: what this test process broadcast once its requests
 * committed. A refresh counts when the commit asks for it (before the debounce sends it).
 * @module
 */

import { WisentError } from "../base/wisent-error.js";
import { type Broadcast, broadcastsHere, forgetBroadcasts } from "../live/broadcast-log.js";

export type { Broadcast } from "../live/broadcast-log.js";

/**
 * Whether `broadcast` went to `stream`: its name (`notes:<user id>`, a record page's
 * `widgets/12`), or its resource's (`notes`, `widgets`).
 */
function onStream(broadcast: Broadcast, stream: string): boolean {
  return broadcast.stream === stream || broadcast.stream.split(/[:/]/)[0] === stream;
}

/**
 * The broadcasts of this test process so far, oldest first.
 * @returns each broadcast's stream, action and data
 * @example expect(broadcasts().map((b) => b.action)).toEqual(["created", "refresh"]);
 */
export function broadcasts(): readonly Broadcast[] {
  return broadcastsHere();
}

/**
 * Fails unless `action` was broadcast to `stream` (a stream's name, or its resource's:
 * `widgets`); returns the last such broadcast. The message lists what was broadcast.
 *
 * @param stream - `widgets`, one owner's `notes:<user id>`, or a record page's `widgets/12`
 * @param action - `refresh`, `created`, `updated` or `destroyed`; with `live: { row }`,
 *   `append`, `prepend`, `replace` or `remove`; `visit` (a destroyed record's page goes to the list)
 * @returns the broadcast (its `data`: the record's JSON)
 * @throws Error when none matches
 * @example
 * await client.post("/widgets", { form: { title: "Lamp" } });
 * const created = assertBroadcast("widgets", "created");
 * expect(JSON.parse(created.data!).title).toBe("Lamp");
 */
export function assertBroadcast(stream: string, action: string): Broadcast {
  const found = broadcastsHere().findLast((b) => onStream(b, stream) && b.action === action);
  if (found) return found;
  const made = broadcastsHere().map((b) => `${b.action} to ${b.stream}`);
  throw new WisentError(
    "E_TEST_ASSERTION",
    `expected ${action} to be broadcast to ${stream}; ${made.length === 0 ? "nothing was" : `broadcast: ${made.join(", ")}`}`,
  );
}

/**
 * Fails when anything was broadcast (to `stream`, when given): a rolled-back request must not.
 * @param stream - only this stream (or resource), when given
 * @throws Error listing what was broadcast
 * @example
 * await client.post("/widgets", { form: { title: "" } }); // 422
 * assertNoBroadcasts("widgets");
 */
export function assertNoBroadcasts(stream?: string): void {
  const made = broadcastsHere().filter((b) => stream === undefined || onStream(b, stream));
  if (made.length === 0) return;
  throw new WisentError(
    "E_TEST_ASSERTION",
    `expected no broadcast${stream ? ` to ${stream}` : ""}; broadcast: ${made.map((b) => `${b.action} to ${b.stream}`).join(", ")}`,
  );
}

/**
 * Forgets the broadcasts so far (call it before each test: the log is the process's).
 * @example beforeEach(() => clearBroadcasts());
 */
export function clearBroadcasts(): void {
  forgetBroadcasts();
}
