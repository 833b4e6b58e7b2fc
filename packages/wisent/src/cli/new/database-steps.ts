/**
 * A new app's first database commands, engine by engine, for its README's "Getting started"
 * and `wisent new`'s next steps alike: SQLite's file is made by the first migration, a server's
 * database is not (`wisent migrate` refuses one that does not exist).
 * @module
 */

/** One command and what it does. */
export interface DatabaseStep {
  readonly command: string;
  readonly does: string;
}

/**
 * The steps that make a new app's development database ready.
 *
 * @example
 * databaseSteps("postgres", "postgres://postgres@127.0.0.1:5432/blog_development")[0]?.command;
 * // "npx wisent db create"
 */
export function databaseSteps(
  db: "sqlite" | "postgres" | "mysql",
  url: string,
): readonly DatabaseStep[] {
  if (db === "sqlite") {
    return [
      { command: "npm run migrate", does: "create or update the database (db/development.sqlite)" },
    ];
  }
  return [
    { command: "npx wisent db create", does: `create the database .env names (${url})` },
    { command: "npm run migrate", does: "create or update its tables" },
  ];
}

/** The steps as the README's shell block writes them: commands aligned, comments after `#`. */
export function readmeDatabaseSteps(steps: readonly DatabaseStep[]): string {
  return steps.map((step) => `${step.command.padEnd(20)} # ${step.does}`).join("\n");
}
