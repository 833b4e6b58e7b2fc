import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable.js";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
const socketError = (code: string, syscall: string) =>
  Object.assign(new Error(`${syscall} ${code}`), { code, syscall });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", socketError("ECONNREFUSED", "connect")],
    ["a reset socket", socketError("ECONNRESET", "read")],
    [
      "pg's AggregateError of refused connections",
      new AggregateError([socketError("ECONNREFUSED", "connect")]),
    ],
    [
      "PostgreSQL shutting down (57P01)",
      withCode("57P01", "terminating connection due to administrator command"),
    ],
    ["PostgreSQL starting up (57P03)", withCode("57P03", "the database system is starting up")],
    ["too many connections (53300)", withCode("53300")],
    ["a connection exception (08006)", withCode("08006")],
    ["pg's dropped socket", new Error("Connection terminated unexpectedly")],
    [
      "pg's unusable client",
      new Error("Client has encountered a connection error and is not queryable"),
    ],
    ["MySQL's lost connection", withCode("PROTOCOL_CONNECTION_LOST")],
    [
      "mysql2's connection the server closed",
      new Error("Can't add new command when connection is in closed state"),
    ],
    [
      "mysql2's write to a connection the server closed",
      withCode("EPIPE", "This socket has been ended by the other party"),
    ],
    ["SQLite busy past its timeout", withCode("SQLITE_BUSY", "database is locked")],
    [
      "one wrapped as a cause",
      new Error("commit failed", { cause: socketError("EPIPE", "write") }),
    ],
  ])("is true for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a syntax error (42601)", withCode("42601", 'syntax error at or near "selec"')],
    ["a unique violation (23505)", withCode("23505")],
    ["a value too long (22001)", withCode("22001")],
    ["a plain Error", new Error("boom")],
    ["a string", "ECONNREFUSED"],
    ["a client's aborted upload (ECONNRESET without a syscall)", withCode("ECONNRESET", "aborted")],
    ["null", null],
    ["SQLite's constraint failure", withCode("SQLITE_CONSTRAINT_NOTNULL")],
  ])("is false for %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("stops on a cause cycle", () => {
    const a = new Error("a") as Error & { cause?: unknown };
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
