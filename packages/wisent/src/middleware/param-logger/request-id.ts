import { fillRandom } from "../../crypto/random-bytes.js";

/** The header a request id is read from and echoed in. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * Ids from proxies are kept when they look like ids (no spaces or control characters). Such an
 * id, like a made one, needs no escaping in JSON: the request log writes it as it is.
 */
const SANE_ID = /^[\w.:@/+=-]{1,200}$/;

/**
 * The incoming id when it is sane, else a new UUID: either way, text JSON leaves as it is.
 * @param incoming - the request's `X-Request-Id`, if any
 * @returns the id to use: the incoming one when it is 1-200 characters of letters, digits and
 *   `_.:@/+=-`, else a new random UUID
 * @example requestIdFrom(undefined); // "3f0c...-..."; requestIdFrom("abc-1") // "abc-1"
 */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming && SANE_ID.test(incoming) ? incoming : newRequestId();
}

// Random (version 4) UUIDs made IDS_AT_ONCE at a time. node:crypto's randomUUID draws the bytes
// of 128 ids per call into the random source and joins each id from 20 two-character strings
// (a rope the id then drags through the response header and the log line). A call costs about
// 4.5 us whatever its size (2 KiB: 7 us, 16 KiB: 14 us), so here one call draws the bytes of
// 1024 ids; a batch of 128 ids is written as ASCII into one buffer and read out as one string,
// and each id is a 36-character slice of it. Request ids are echoed to the client and logged,
// not secret, so their bytes may stay in memory until used.
const IDS_AT_ONCE = 128;
const IDS_PER_DRAW = 1024;
const UUID_LENGTH = 36;
const random = new Uint8Array(16 * IDS_PER_DRAW);
let randomAt = random.length;
const ascii = Buffer.alloc(UUID_LENGTH * IDS_AT_ONCE);
const HEX = Uint8Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));
const DASH = 45;
let batch = "";
let nextId = IDS_AT_ONCE;

function makeBatch(): void {
  if (randomAt === random.length) {
    // Larger than the shared pool: fillRandom draws it straight from the random source.
    fillRandom(random);
    randomAt = 0;
  }
  let at = 0;
  const end = randomAt + 16 * IDS_AT_ONCE;
  for (let from = randomAt; from < end; from += 16) {
    random[from + 6] = (random[from + 6]! & 0x0f) | 0x40; // version 4
    random[from + 8] = (random[from + 8]! & 0x3f) | 0x80; // variant 10
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) ascii[at++] = DASH;
      const byte = random[from + i]!;
      ascii[at++] = HEX[byte >> 4]!;
      ascii[at++] = HEX[byte & 15]!;
    }
  }
  randomAt = end;
  batch = ascii.toString("latin1", 0, at);
  nextId = 0;
}
/**
 * A new random (version 4) UUID, `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`, from the CSPRNG,
 * as `crypto.randomUUID()` makes.
 *
 * @example
 * const id = newRequestId(); // "3b241101-e2bb-4255-8caf-4136c566a962"
 */
export function newRequestId(): string {
  if (nextId === IDS_AT_ONCE) makeBatch();
  const at = UUID_LENGTH * nextId++;
  return batch.slice(at, at + UUID_LENGTH);
}
