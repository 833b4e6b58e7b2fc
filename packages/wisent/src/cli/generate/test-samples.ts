import type { Attribute } from "./attributes.js";

/**
 * The sample values of generated tests (`--tests=full`), as TypeScript source: every value comes
 * from the attribute-type table's `samples` and `invalid`, so the tests agree with the model rules.
 */

/** A record the tests create first: the parent of a nested resource or a referenced record. */
export interface TestFixture {
  /** Its model (`Widget`), imported by the test. */
  readonly model: string;
  /** The test's variable holding it: `widget`. */
  readonly var: string;
  /** Import specifier from the test file: `../models/widget.js`. */
  readonly importPath: string;
  /** The object literal it is created with. */
  readonly values: string;
  /** Its resource is owned: created as the tests' signed-in user's. */
  readonly owned?: boolean | undefined;
  /** An owned one's values as the other user's (`user_id: bob.id`): his own parent to nest in. */
  readonly bobValues?: string | undefined;
}

/** What the full test template prints. */
export interface TestSamples {
  /** Object literal body (`title: "First value", post_id: post.id`) of valid values for create... */
  readonly create: string;
  /** ...and for update. */
  readonly update: string;
  /** Valid values for the model alone: references (and a parent's key) are a made-up id. */
  readonly model: string;
  /** The same values as form text (what a browser sends). */
  readonly createForm: string;
  readonly updateForm: string;
  /** A field and value the model refuses (its 422), when any field can be invalid. */
  readonly invalid:
    | {
        readonly field: string;
        readonly json: string;
        readonly form: string;
        /** The value has the field's TypeScript type, so the typed client can send it. */
        readonly typed: boolean;
      }
    | undefined;
  /**
   * The attachment fields' files, sent as multipart (a real PNG from `wisent/testing`'s
   * `samplePng`) with `create` (`cover: samplePng("cat.png")`)...
   */
  readonly files: string;
  /** ...and with `update` (`dog.png`). */
  readonly changedFiles: string;
  /** What the record answers for them after create (`cover: { name: "cat.png", type: "image/png" }`)... */
  readonly storedFiles: string;
  /** ...and after update. */
  readonly changedStoredFiles: string;
  /** The record's expression of one stored file's URL, to fetch it (`created.cover?.url`), if any. */
  readonly fileUrl: ((record: string) => string) | undefined;
  /**
   * A reference is `:uniq` (one-to-one): the values make a referenced record each, so the value
   * functions are async and every use awaits them.
   */
  readonly asyncValues: boolean;
  /** Records to create before the tests (parent, referenced records). */
  readonly fixtures: readonly TestFixture[];
  /**
   * The referenced records the other user (Bob) needs of his own, for an owned resource whose
   * references are owned (his record cannot point at Ada's): their variables (`bobProject`),
   * models and values; empty otherwise.
   */
  readonly bobFixtures: readonly {
    readonly var: string;
    readonly model: string;
    readonly values: string;
  }[];
  /** `create`, with those references pointing at Bob's own (`project_id: bobProject.id`). */
  readonly bobCreate: string;
  /** `createForm`, likewise. */
  readonly bobCreateForm: string;
  /** `update`, likewise. */
  readonly bobUpdate: string;
  /** The first reference Bob cannot point at Ada's record of: its field and Ada's variable. */
  readonly ownedReference:
    | {
        readonly field: string;
        readonly label: string;
        readonly var: string;
        readonly bobVar: string;
      }
    | undefined;
  /** The first field unique per user (`:uniq` on an owned resource), if any. */
  readonly perOwnerUnique: { readonly field: string; readonly label: string } | undefined;
  /** Some value calls the test file's `unique()` (a `:uniq` field or fixture). */
  readonly usesUnique: boolean;
}

/**
 * The test file's helper that makes a `:uniq` field's sample a value no other record has (test
 * files share their database, and create records in every test).
 */
export const UNIQUE_HELPER = `/** A value no other record has: unique fields get one per record. */
const unique = () => crypto.randomUUID().slice(0, 13);`;

/** An id for a model's foreign keys when the model is validated alone. */
const MADE_UP_ID = "0190f5a2-7b1c-7cde-8f00-1234567890ef";

/** A JS literal of a sample value. */
function literal(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  return `{ ${Object.entries(value)
    .map(([key, v]) => `${key}: ${literal(v)}`)
    .join(", ")} }`;
}

/** A value as a form field's text: what `<input>` sends. */
function formText(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value !== null && typeof value === "object") return JSON.stringify(JSON.stringify(value));
  return JSON.stringify(String(value));
}

/** A random whole number from `unique()` (up to 2^28), the source of the values below. */
const RANDOM = "Number.parseInt(unique().slice(0, 7), 16)";

/**
 * A `:uniq` field's sample made different per record (an expression calling `unique()`): text
 * gets a suffix, a number an offset, a decimal random digits within its precision, a time, a
 * day or a moment a random one, a uuid a new one. (`:uniq` is refused for the types no two
 * records could keep apart: booleans, JSON and files; see `attributes.ts`.)
 */
function uniqueSample(attr: Attribute, value: unknown, form: boolean): string | undefined {
  const { type } = attr;
  const asText = (number: string) => (form ? `String(${number})` : number);
  switch (type.column) {
    case "uuid":
      return "crypto.randomUUID()";
    case "string":
    case "text":
      return typeof value === "string" ? `\`${value} \${unique()}\`` : undefined;
    case "integer":
    case "float":
      return typeof value === "number" ? asText(`${value} + ${RANDOM}`) : undefined;
    // Its sample is near the largest exact number: away from it.
    case "bigInteger":
      return typeof value === "number" ? asText(`${value} - ${RANDOM}`) : undefined;
    case "decimal": {
      const [precision = 12, scale = 2] = type.columnArgs ?? [];
      const digits = Math.min(precision, 8);
      return `(${RANDOM} % 1e${digits} / 1e${scale}).toFixed(${scale})`;
    }
    case "timestamp":
      return `new Date(Date.UTC(2024, 0, 1) + ${RANDOM} * 1000).toISOString()`;
    case "date":
      return `new Date(Date.UTC(2000, 0, 1) + (${RANDOM} % 2_900_000) * 86_400_000).toISOString().slice(0, 10)`;
    case "time":
      return `new Date((${RANDOM} % 86_400) * 1000).toISOString().slice(11, 19)`;
    default:
      return undefined;
  }
}

/** Whether some field's sample calls `unique()`. */
function callsUnique(attrs: readonly Attribute[]): boolean {
  return attrs.some(
    (a) =>
      a.unique && !a.references && uniqueSample(a, a.type.samples[0], false)?.includes("unique()"),
  );
}

/** Whether an attribute holds files: sent as multipart parts, never in JSON, XML or a model test. */
const isFile = (attr: Attribute) => attr.type.input === "file";

/** The names of the PNGs a create and an update upload. */
const FILE_NAMES = ["cat.png", "dog.png"] as const;

/** The attachment fields' files (`cover: samplePng("cat.png")`), or what the record answers for them. */
function files(attrs: readonly Attribute[], index: 0 | 1, stored: boolean): string {
  const name = JSON.stringify(FILE_NAMES[index]);
  return attrs
    .filter(isFile)
    .map((attr) => {
      const one = stored ? `{ name: ${name}, type: "image/png" }` : `samplePng(${name})`;
      return `${attr.name}: ${attr.type.display === "attachments" ? `[${one}]` : one}`;
    })
    .join(", ");
}

/** The literal of one attribute's value: a reference is the fixture's id (`refVar` names it). */
function fields(
  attrs: readonly Attribute[],
  index: 0 | 1,
  form: boolean,
  madeUpIds = false,
  fixtures: readonly TestFixture[] = [],
  refVar: (attr: Attribute) => string = referenceVar,
): string {
  return attrs
    .filter((attr) => !isFile(attr))
    .map((attr) => {
      if (attr.references) {
        if (madeUpIds) return `${attr.name}: ${JSON.stringify(MADE_UP_ID)}`;
        // A unique reference: a referenced record of its own for each record (values are async).
        const own = attr.unique ? fixtures.find((f) => f.var === referenceVar(attr)) : undefined;
        if (own) return `${attr.name}: (await ${own.model}.create(db.kysely, ${own.values})).id`;
        return `${attr.name}: ${refVar(attr)}.id`;
      }
      const value = attr.type.samples[index];
      const distinct = attr.unique && !madeUpIds ? uniqueSample(attr, value, form) : undefined;
      return `${attr.name}: ${distinct ?? (form ? formText(value) : literal(value))}`;
    })
    .join(", ");
}

/** The test's variable for a referenced record: `post` for `post_id`. */
export function referenceVar(attr: Attribute): string {
  return attr.name.replace(/_id$/, "").replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The other user's (Bob's) record of the same kind: `bobPost` for `post_id`. */
function bobVar(attr: Attribute): string {
  const own = referenceVar(attr);
  return `bob${own.charAt(0).toUpperCase()}${own.slice(1)}`;
}

/** The field whose invalid value the 422 test sends: a required one first (blank), else any. */
function invalidField(attrs: readonly Attribute[]): Attribute | undefined {
  return (
    attrs.find((a) => a.type.required && a.type.invalid !== undefined) ??
    attrs.find((a) => a.type.invalid !== undefined)
  );
}

/**
 * The generated tests' values for a resource with these attributes.
 *
 * @example
 * testSamples(parseAttributes(["title", "age:int"]), []).create; // 'title: "First value", age: 42'
 */
export function testSamples(
  attrs: readonly Attribute[],
  fixtures: readonly TestFixture[],
  foreignKeys: readonly string[] = [],
  owned: { readonly references: ReadonlySet<string>; readonly uniqueFields: readonly string[] } = {
    references: new Set(),
    uniqueFields: [],
  },
): TestSamples {
  const bad = invalidField(attrs);
  // The references Bob must point at records of his own (each user's are their own).
  const bobsOwn = attrs.filter(
    (a) =>
      a.references &&
      owned.references.has(a.name) &&
      fixtures.some((f) => f.var === referenceVar(a) && f.owned && f.bobValues),
  );
  const bobRef = (attr: Attribute) => (bobsOwn.includes(attr) ? bobVar(attr) : referenceVar(attr));
  const firstOwned = bobsOwn[0];
  // A parent's and an owner's key: set by the handlers, a made-up id for the model alone.
  const parentId = foreignKeys.map((key) => `${key}: ${JSON.stringify(MADE_UP_ID)}`);
  return {
    model: [...parentId, fields(attrs, 0, false, true)].filter((f) => f !== "").join(", "),
    create: fields(attrs, 0, false, false, fixtures),
    update: fields(attrs, 1, false, false, fixtures),
    createForm: fields(attrs, 0, true, false, fixtures),
    updateForm: fields(attrs, 1, true, false, fixtures),
    asyncValues: attrs.some((a) => a.unique && a.references),
    invalid: bad && {
      field: bad.name,
      json: literal(bad.type.invalid),
      form: formText(bad.type.invalid),
      typed: typeof bad.type.invalid === "string" && /^(string|Date)\b/.test(bad.type.tsType),
    },
    files: files(attrs, 0, false),
    changedFiles: files(attrs, 1, false),
    storedFiles: files(attrs, 0, true),
    changedStoredFiles: files(attrs, 1, true),
    fileUrl: fileUrl(attrs),
    fixtures,
    bobFixtures: bobsOwn.map((attr) => {
      const fixture = fixtures.find((f) => f.var === referenceVar(attr))!;
      return { var: bobVar(attr), model: fixture.model, values: fixture.bobValues! };
    }),
    bobCreate: fields(attrs, 0, false, false, fixtures, bobRef),
    bobCreateForm: fields(attrs, 0, true, false, fixtures, bobRef),
    bobUpdate: fields(attrs, 1, false, false, fixtures, bobRef),
    ownedReference: firstOwned && {
      field: firstOwned.name,
      label: firstOwned.label,
      var: referenceVar(firstOwned),
      bobVar: bobVar(firstOwned),
    },
    perOwnerUnique: attrs
      .filter((a) => owned.uniqueFields.includes(a.name))
      .map((a) => ({ field: a.name, label: a.label }))[0],
    usesUnique: callsUnique(attrs) || fixtures.some((f) => f.values.includes("unique()")),
  };
}

/** How the tests reach the first attachment's stored file on a record, to download it. */
function fileUrl(attrs: readonly Attribute[]): ((record: string) => string) | undefined {
  const first = attrs.find(isFile);
  if (!first) return undefined;
  return (record) =>
    first.type.display === "attachments"
      ? `${record}.${first.name}[0]?.url`
      : `${record}.${first.name}?.url`;
}

/**
 * The values a fixture record is created with (its own attributes' first samples), after `owner`
 * (`user_id: ada.id`) when its resource is owned.
 */
export function fixtureValues(attrs: readonly Attribute[], owner?: string): string {
  return `{ ${[...(owner ? [owner] : []), fields(attrs, 0, false)].filter((f) => f !== "").join(", ")} }`;
}
