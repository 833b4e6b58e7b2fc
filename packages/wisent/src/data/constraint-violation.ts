/**
 * What a database's constraint error says, the same on SQLite (better-sqlite3), PostgreSQL (pg)
 * and MySQL/MariaDB (mysql2), so that a model answers a 422 or a 409 naming the field instead
 * of a 500.
 */
export type ConstraintViolation =
  /** A UNIQUE index refused a value; `columns` when the error names them, `index` when it names that. */
  | { readonly kind: "unique"; readonly columns: readonly string[]; readonly index?: string }
  /** A foreign key points at no row (an insert or update); `columns` when the error names them. */
  | { readonly kind: "missing-reference"; readonly columns: readonly string[] }
  /** A row other rows point to (a delete the foreign key restricts). */
  | { readonly kind: "referenced" };

interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  sqlMessage?: unknown;
  detail?: unknown;
  cause?: unknown;
}

/** PostgreSQL: `Key (isbn)=(x) already exists.`, `Key (a, b)=(...) is not present ...`. */
function pgKeyColumns(detail: unknown): string[] {
  const match = typeof detail === "string" ? /^Key \(([^)]*)\)=/.exec(detail) : null;
  return match ? match[1]!.split(",").map((c) => c.trim().replace(/^"|"$/g, "")) : [];
}

/** MySQL: `... FOREIGN KEY (`author_id`) REFERENCES ...`. */
function mysqlForeignKeyColumns(message: string): string[] {
  const match = /FOREIGN KEY \(([^)]*)\)/.exec(message);
  return match ? match[1]!.split(",").map((c) => c.trim().replace(/^`|`$/g, "")) : [];
}

function of(error: DriverError): ConstraintViolation | undefined {
  const code = error.code;
  const message = String(error.sqlMessage ?? error.message ?? "");
  // better-sqlite3: "UNIQUE constraint failed: books.isbn" (", books.x" for several columns).
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    const list = /constraint failed: (.*)$/.exec(message)?.[1] ?? "";
    const columns = list
      .split(",")
      .map((c) => c.trim().split(".").at(-1) ?? "")
      .filter((c) => c !== "");
    return { kind: "unique", columns };
  }
  // SQLite names neither the column nor the direction; a DELETE that fails can only be refused
  // because rows point to it, anything else points at nothing (see the model's use).
  if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") return { kind: "missing-reference", columns: [] };
  // ON DELETE RESTRICT is checked at once, by a trigger-like action with the same message.
  if (code === "SQLITE_CONSTRAINT_TRIGGER" && message === "FOREIGN KEY constraint failed") {
    return { kind: "referenced" };
  }
  if (code === "23505") return { kind: "unique", columns: pgKeyColumns(error.detail) };
  if (code === "23503") {
    return typeof error.detail === "string" && error.detail.includes("is still referenced")
      ? { kind: "referenced" }
      : { kind: "missing-reference", columns: pgKeyColumns(error.detail) };
  }
  // mysql2: "Duplicate entry 'x' for key 'books_isbn_idx'" (MySQL 8 writes 'books.books_isbn_idx').
  if (error.errno === 1062) {
    const key = /for key '([^']*)'/.exec(message)?.[1]?.split(".").at(-1);
    return key === undefined
      ? { kind: "unique", columns: [] }
      : { kind: "unique", columns: [], index: key };
  }
  if (error.errno === 1451 || error.errno === 1217) return { kind: "referenced" };
  if (error.errno === 1452 || error.errno === 1216) {
    return { kind: "missing-reference", columns: mysqlForeignKeyColumns(message) };
  }
  return undefined;
}

/**
 * The constraint a database error reports, or undefined for any other error (also one wrapped
 * as another's `cause`).
 *
 * @param error - anything a query threw
 * @returns the violation's kind (`unique`, `missing-reference`, `referenced`) with the columns
 *   or index it names, or undefined
 * @example
 * constraintViolation(pgError); // { kind: "unique", columns: ["isbn"] }
 */
export function constraintViolation(error: unknown): ConstraintViolation | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const found = of(e as DriverError);
    if (found) return found;
    e = (e as DriverError).cause;
  }
  return undefined;
}
