import pg from "pg";
import { vi } from "vitest";
import { carriesBegin } from "../postgres-deferred-begin.js";

/**
 * Records what this process's pg clients send, from a spy on `pg.Client#query`: `statements`,
 * each lower case and trimmed, in order, a BEGIN sent with the statement after it included; and
 * `roundTrips`, one for each query pg was given (a BEGIN sent with the next statement shares
 * its round trip). Restore with `vi.restoreAllMocks()`.
 * @example const { statements } = recordPgStatements(); ...; expect(statements).toEqual(["begin", ...])
 */
export function recordPgStatements(): { statements: string[]; roundTrips: string[][] } {
  const statements: string[] = [];
  const roundTrips: string[][] = [];
  const query = pg.Client.prototype.query;
  vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const [config] = args as [string | { text?: string }];
    const text = String(typeof config === "string" ? config : config?.text)
      .trim()
      .toLowerCase();
    const sent = carriesBegin(config) ? ["begin", text] : [text];
    statements.push(...sent);
    roundTrips.push(sent);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  return { statements, roundTrips };
}
