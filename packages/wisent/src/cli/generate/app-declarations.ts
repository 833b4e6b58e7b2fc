/**
 * The resource registrations of an app's src/app.ts, read with the TypeScript compiler's parser
 * (the app's own `typescript`, else the one next to Wisent): `destroy` removes a registration
 * however it was edited or formatted (an options object added, wrapped by Biome, chained), and
 * `generate --parent` finds a parent under whatever variable it was exported as.
 * @module
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as TS from "typescript";
import { singularize, underscore } from "../../naming/index.js";
import { UsageError } from "./usage-error.js";

type TypeScript = typeof TS;

/** One `<receiver>.resource("/path", new XResource(), ...)` (or `.singleton`) call of src/app.ts. */
export interface Registration {
  readonly method: "resource" | "singleton";
  /** The path given (`/widgets`), when a string literal. */
  readonly path: string | undefined;
  /** The class made: `new WidgetsResource()`, or the class an anonymous one extends. */
  readonly className: string | undefined;
  /** The variable the call is made on (`app`, `authors`); undefined when on another call (a chain). */
  readonly receiver: string | undefined;
  /** The variable holding the result (`export const widgets = ...`), when the call is its value. */
  readonly variable: string | undefined;
  /** The 1-based line the call starts on. */
  readonly line: number;
  /** The statement's text, for messages. */
  readonly statement: string;
  /** The characters to delete to take the registration out, or why it cannot be taken out. */
  readonly removal: { readonly start: number; readonly end: number } | { readonly refused: string };
  /** The call node (for finding what is chained on it). */
  readonly node: TS.CallExpression;
}

/** src/app.ts parsed. */
export interface AppDeclarations {
  readonly source: string;
  readonly registrations: readonly Registration[];
  /** Where `name` is used (imports and declarations of it left out): 1-based line and offset. */
  usesOf(name: string): { readonly line: number; readonly at: number }[];
  /** The import of `name` from a relative module: the characters to delete to drop it. */
  importOf(name: string): { readonly start: number; readonly end: number } | undefined;
}

const cache = new Map<string, TypeScript | null>();

/** The app's TypeScript (a devDependency of every generated app), else the one Wisent finds. */
export function loadTypeScript(appDir: string): TypeScript {
  if (!cache.has(appDir)) {
    let found: TypeScript | null = null;
    for (const from of [join(appDir, "package.json"), import.meta.url]) {
      try {
        found = createRequire(from)("typescript") as TypeScript;
        break;
      } catch {
        // Not installed there: try the next place.
      }
    }
    cache.set(appDir, found);
  }
  const ts = cache.get(appDir);
  if (!ts) {
    throw new UsageError(
      'reading src/app.ts needs the "typescript" package: run npm install (it is a devDependency of the app)',
    );
  }
  return ts;
}

/** Extends `[start, end)` to whole lines when nothing but blanks (or a line comment) shares them. */
function wholeLines(source: string, start: number, end: number): { start: number; end: number } {
  const lineStart = source.lastIndexOf("\n", start - 1) + 1;
  let lineEnd = source.indexOf("\n", end);
  if (lineEnd < 0) lineEnd = source.length;
  const before = source.slice(lineStart, start);
  const after = source.slice(end, lineEnd);
  if (before.trim() !== "" || !/^\s*(\/\/.*)?$/.test(after)) return { start, end };
  return { start: lineStart, end: Math.min(lineEnd + 1, source.length) };
}

/** The class a `new X()` or `new (class extends X {})()` makes. */
function classOf(ts: TypeScript, node: TS.Expression | undefined): string | undefined {
  if (!node || !ts.isNewExpression(node)) return undefined;
  let made: TS.Expression = node.expression;
  while (ts.isParenthesizedExpression(made)) made = made.expression;
  if (ts.isIdentifier(made)) return made.text;
  if (ts.isClassExpression(made)) {
    const base = made.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
      ?.types[0]?.expression;
    return base && ts.isIdentifier(base) ? base.text : undefined;
  }
  return undefined;
}

/** Whether `node` is a `.resource(...)` or `.singleton(...)` call. */
function registrationCall(
  ts: TypeScript,
  node: TS.Node,
): node is TS.CallExpression & { expression: TS.PropertyAccessExpression } {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    (node.expression.name.text === "resource" || node.expression.name.text === "singleton")
  );
}

/**
 * Parses src/app.ts.
 *
 * @example
 * readDeclarations(ts, 'export const books = app.resource("/books", new BooksResource());')
 *   .registrations[0]; // { className: "BooksResource", variable: "books", receiver: "app", ... }
 */
export function readDeclarations(ts: TypeScript, source: string): AppDeclarations {
  const file = ts.createSourceFile(
    "app.ts",
    source,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TS,
  );
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const registrations: Registration[] = [];

  const statementOf = (node: TS.Node): TS.Statement | undefined => {
    let current: TS.Node | undefined = node;
    while (current && !ts.isSourceFile(current.parent)) current = current.parent;
    return current as TS.Statement | undefined;
  };

  const removalOf = (call: TS.CallExpression & { expression: TS.PropertyAccessExpression }) => {
    const statement = statementOf(call);
    const receiver = call.expression.expression;
    const chained = registrationCall(ts, receiver);
    const parent = call.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === call) {
      return { refused: `something is chained on it (.${parent.name.text})` };
    }
    // On a chain (`app.resource(...).resource("/books", ...)`): only this link goes.
    if (chained) return { start: receiver.end, end: call.end };
    if (!statement) return { refused: "it is not a statement of the file" };
    const whole = wholeLines(source, statement.getStart(file), statement.end);
    if (ts.isExpressionStatement(statement) && statement.expression === call) return whole;
    if (
      ts.isVariableStatement(statement) &&
      statement.declarationList.declarations.length === 1 &&
      statement.declarationList.declarations[0]!.initializer === call
    ) {
      return whole;
    }
    return { refused: "it is part of a larger statement" };
  };

  const visit = (node: TS.Node): void => {
    if (registrationCall(ts, node)) {
      const receiver = node.expression.expression;
      const first = node.arguments[0];
      const statement = statementOf(node);
      const declaration =
        ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
          ? node.parent.name.text
          : undefined;
      registrations.push({
        method: node.expression.name.text as "resource" | "singleton",
        path: first && ts.isStringLiteralLike(first) ? first.text : undefined,
        className: classOf(ts, node.arguments[1]),
        receiver: ts.isIdentifier(receiver) ? receiver.text : undefined,
        variable: declaration,
        line: lineOf(node.getStart(file)),
        statement: (statement ?? node).getText(file),
        removal: removalOf(node),
        node,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  const usesOf = (name: string) => {
    const lines: { line: number; at: number }[] = [];
    const walk = (node: TS.Node): void => {
      if (ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) && node.text === name) {
        const parent = node.parent;
        const declares =
          (ts.isVariableDeclaration(parent) && parent.name === node) ||
          (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
          (ts.isPropertyAssignment(parent) && parent.name === node);
        const at = node.getStart(file);
        if (!declares) lines.push({ line: lineOf(at), at });
      }
      ts.forEachChild(node, walk);
    };
    walk(file);
    return lines;
  };

  const importOf = (name: string) => {
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement)) continue;
      const from = statement.moduleSpecifier;
      if (!ts.isStringLiteral(from) || !from.text.startsWith(".")) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const element = bindings.elements.find((e) => e.name.text === name);
      if (!element) continue;
      const alone = bindings.elements.length === 1 && !statement.importClause?.name;
      if (alone) return wholeLines(source, statement.getStart(file), statement.end);
      // One of several names: it goes with the comma after it (or before it, when last).
      const index = bindings.elements.indexOf(element);
      const next = bindings.elements[index + 1];
      return next
        ? { start: element.getStart(file), end: next.getStart(file) }
        : { start: bindings.elements[index - 1]!.end, end: element.end };
    }
    return undefined;
  };

  return { source, registrations, usesOf, importOf };
}

/** Deletes ranges (any order, not overlapping) from `source`. */
function cut(source: string, ranges: readonly { start: number; end: number }[]): string {
  let out = source;
  for (const range of [...ranges].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, range.start) + out.slice(range.end);
  }
  return out;
}

/** The registrations made on `registration`'s result: by its variable, or chained on the call. */
export function nestedIn(
  declarations: AppDeclarations,
  registration: Registration,
): Registration[] {
  return declarations.registrations.filter(
    (other) =>
      other !== registration &&
      ((registration.variable !== undefined && other.receiver === registration.variable) ||
        (other.node.expression as TS.PropertyAccessExpression).expression === registration.node),
  );
}

/**
 * src/app.ts without the registration of `className` and its import; unchanged when it has
 * neither. Throws a {@link UsageError} naming the line to remove by hand when taking them out
 * would leave code that does not compile (the class or the registration's variable still used
 * elsewhere, a registration inside a larger statement).
 *
 * @example
 * unregister(ts, appSource, "BooksResource").source; // without `import { BooksResource } ...` and `export const books = ...`
 */
export function unregister(
  ts: TypeScript,
  source: string,
  className: string,
): { source: string; changed: boolean } {
  const declarations = readDeclarations(ts, source);
  const own = declarations.registrations.filter((r) => r.className === className);
  const byHand = (line: number, why: string) =>
    new UsageError(
      `src/app.ts:${line} ${why}: remove it by hand (and what uses it), then run destroy again`,
    );
  const ranges: { start: number; end: number }[] = [];
  for (const registration of own) {
    if ("refused" in registration.removal) {
      throw byHand(
        registration.line,
        `registers ${className}, but ${registration.removal.refused}`,
      );
    }
    if (registration.variable) {
      const uses = declarations.usesOf(registration.variable);
      if (uses.length > 0) {
        throw byHand(
          uses[0]!.line,
          `uses ${registration.variable}, the variable ${className} is registered as`,
        );
      }
    }
    ranges.push(registration.removal);
  }
  const imported = declarations.importOf(className);
  if (imported) {
    const left = declarations
      .usesOf(className)
      .filter(({ at }) => !ranges.some((r) => at >= r.start && at < r.end));
    if (left.length > 0) throw byHand(left[0]!.line, `uses ${className}`);
  }
  if (ranges.length === 0 && !imported) return { source, changed: false };
  return { source: cut(source, imported ? [...ranges, imported] : ranges), changed: true };
}

/** The singular name a registration's class stands for: `AuthorBooksResource` -> `author_book`. */
export function registeredName(registration: Registration): string | undefined {
  if (!registration.className) return undefined;
  const base = registration.className.replace(/Resource$/, "");
  return base === "" ? undefined : singularize(underscore(base));
}
