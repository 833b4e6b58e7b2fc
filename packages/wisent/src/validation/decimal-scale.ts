import type { z } from "zod";

/**
 * Digits after the point of a number as JavaScript prints it: 12.51 -> 2, 1.5e-7 -> 8.
 * @param value - any finite number
 * @returns how many digits follow the point
 * @example decimalPlaces(12.51); // 2
 */
export function decimalPlaces(value: number): number {
  const [mantissa = "", exponent = "0"] = String(Math.abs(value)).split("e");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/**
 * A zod refinement for a `decimal(precision, scale)` column: a number with more digits after the
 * point than `scale` is refused (a 422 "Price must have at most 2 decimal places."), because the
 * database would round it and a later read would differ from what the write answered. Counts the
 * digits JavaScript prints (`0.1 + 0.2` has 17), never rounds.
 *
 * @param scale - the column's scale: the most digits allowed after the point
 * @returns a zod `superRefine` check adding the error to the field
 * @example
 * z.number().superRefine(decimalScale(2)); // 12.5 and 12.51 pass, 12.511 fails
 */
export function decimalScale(scale: number): (value: number, ctx: z.RefinementCtx) => void {
  const divisor = Number(`1e-${scale}`);
  return (value, ctx) => {
    if (Number.isFinite(value) && decimalPlaces(value) > scale) {
      ctx.addIssue({ code: "not_multiple_of", divisor, input: value });
    }
  };
}
