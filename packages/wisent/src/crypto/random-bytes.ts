import { randomFillSync } from "node:crypto";

// CSPRNG bytes drawn 4 KiB at a time (as node:crypto's randomUUID does): one call into the
// random source per hundreds of ids or CSRF pads instead of one each.
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let poolAt = POOL_BYTES;

/**
 * Fills `into[0, length)` with fresh CSPRNG bytes. Every pool byte is handed out once and wiped
 * when taken, so no secret (a CSRF pad) stays in the pool after its use.
 *
 * @example
 * const bytes = new Uint8Array(16);
 * fillRandom(bytes);
 */
export function fillRandom(into: Uint8Array, length: number = into.length): void {
  if (length > POOL_BYTES) {
    randomFillSync(into, 0, length);
    return;
  }
  if (poolAt + length > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  into.set(pool.subarray(poolAt, poolAt + length));
  pool.fill(0, poolAt, poolAt + length);
  poolAt += length;
}
