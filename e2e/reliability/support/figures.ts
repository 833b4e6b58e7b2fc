/** Prints one scenario's figures as a single line, for docs/explanation/reliability.md. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  console.log(`[reliability] ${scenario}: ${JSON.stringify(figures)}`);
}

/** Scale for `npm run soak` (RELIABILITY_SOAK=1): the long variants of the same tests. */
export const SOAK = process.env.RELIABILITY_SOAK === "1";
