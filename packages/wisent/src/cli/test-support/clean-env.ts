/**
 * The environment of a person's shell for a CLI or app process a test spawns: none of the parent
 * Vitest's variables (its GO_ENV, DATABASE_URL, TEST_DATABASE_URL, PORT, ...), no colour, plus `extra`.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      !/^(VITEST|NODE_ENV$|GO_ENV$|DATABASE_URL$|TEST_DATABASE_URL$|PORT$|TEST$|FORCE_COLOR$)/.test(
        key,
      )
    )
      env[key] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}
