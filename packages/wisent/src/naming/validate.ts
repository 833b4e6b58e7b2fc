import { camelize, underscore } from "./casing.js";
import { pluralize, singularize } from "./inflection.js";

/** JavaScript/TypeScript reserved words: a model variable may not be named after one. */
const JS_RESERVED = [
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "infinity",
  "instanceof",
  "interface",
  "let",
  "nan",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "undefined",
  "var",
  "void",
  "while",
  "with",
  "yield",
];

/** Names that would collide with an app's own files or with object internals. */
const FRAMEWORK_RESERVED = [
  "app",
  "application",
  "constructor",
  "context",
  "home",
  "hono",
  "middleware",
  "migration",
  "proto",
  "prototype",
  "server",
  "test",
  "wisent",
];

const RESERVED: ReadonlySet<string> = new Set([...JS_RESERVED, ...FRAMEWORK_RESERVED]);

const ALLOWED = /^[A-Za-z0-9_\-/]+$/;
const DISALLOWED = /[^A-Za-z0-9_\-/]/g;

/**
 * Checks a resource name as given to `generate resource` (`widget`, `UserProfile`,
 * `admin/widget`). Returns an error message, or `undefined` when the name is valid.
 * @example validateResourceName("admin/widget") // undefined
 * @example validateResourceName("1widget") // 'resource name "1widget": each part must start with a letter'
 */
export function validateResourceName(input: unknown): string | undefined {
  if (typeof input !== "string") return `resource name must be a string, got ${typeof input}`;
  if (input.trim() === "") return "resource name must not be empty";
  const quoted = JSON.stringify(input);
  if (!ALLOWED.test(input)) {
    const bad = [...new Set(input.match(DISALLOWED))].map((c) => JSON.stringify(c)).join(", ");
    return `resource name ${quoted} contains invalid characters (${bad}): use letters, digits, "_" and "-", and "/" for a namespace`;
  }
  const segments = input.split("/");
  if (segments.some((s) => s === "")) {
    return `resource name ${quoted} has an empty part: write a namespace as "admin/widget"`;
  }
  if (segments.some((s) => !/^[A-Za-z]/.test(s))) {
    return `resource name ${quoted}: each part must start with a letter`;
  }
  for (const segment of segments) {
    const reserved = reservedForm(segment);
    if (reserved !== undefined) {
      return `resource name ${quoted} is reserved ("${reserved}" is a JavaScript keyword or a framework name): choose another name`;
    }
  }
  return undefined;
}

/** The first form of `segment` (singular, plural, snake or camel) that is reserved. */
function reservedForm(segment: string): string | undefined {
  const snake = underscore(segment);
  const forms = [snake, singularize(snake), pluralize(snake)].flatMap((f) => [f, camelize(f)]);
  return forms.find((f) => RESERVED.has(f.toLowerCase()));
}
