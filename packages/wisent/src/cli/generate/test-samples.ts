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

/**
 * A `:uniq` field's sample made different per record (an expression calling `unique()`): text
 * gets a suffix, a whole number an offset, a uuid a new one; other types keep their sample.
 */
function uniqueSample(attr: Attribute, value: unknown, form: boolean): string | undefined {
  const { type } = attr;
  if (type.column === "uuid") return "crypto.randomUUID()";
  if (typeof value === "string" && type.display === "text" && /^(string|text)$/.test(type.column)) {
    return `\`${value} \${unique()}\``;
  }
  if (typeof value === "number" && Number.isInteger(value) && type.column === "integer") {
    const number = `${value} + Number.parseInt(unique().slice(0, 7), 16)`;
    return form ? `String(${number})` : number;
  }
  return undefined;
}

/** Whether some field's sample calls `unique()`. */
function callsUnique(attrs: readonly Attribute[]): boolean {
  return attrs.some(
    (a) =>
      a.unique && !a.references && uniqueSample(a, a.type.samples[0], false)?.includes("unique()"),
  );
}

/** The literal of one attribute's value: a reference is the fixture's id (`refVar` names it). */
function fields(
  attrs: readonly Attribute[],
  index: 0 | 1,
  form: boolean,
  madeUpIds = false,
  refVar: (attr: Attribute) => string = referenceVar,
): string {
  return attrs
    .map((attr) => {
      if (attr.references) {
        return `${attr.name}: ${madeUpIds ? JSON.stringify(MADE_UP_ID) : `${refVar(attr)}.id`}`;
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
    create: fields(attrs, 0, false),
    update: fields(attrs, 1, false),
    createForm: fields(attrs, 0, true),
    updateForm: fields(attrs, 1, true),
    invalid: bad && {
      field: bad.name,
      json: literal(bad.type.invalid),
      form: formText(bad.type.invalid),
      typed: typeof bad.type.invalid === "string" && /^(string|Date)\b/.test(bad.type.tsType),
    },
    fixtures,
    bobFixtures: bobsOwn.map((attr) => {
      const fixture = fixtures.find((f) => f.var === referenceVar(attr))!;
      return { var: bobVar(attr), model: fixture.model, values: fixture.bobValues! };
    }),
    bobCreate: fields(attrs, 0, false, false, bobRef),
    bobCreateForm: fields(attrs, 0, true, false, bobRef),
    bobUpdate: fields(attrs, 1, false, false, bobRef),
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

/**
 * The values a fixture record is created with (its own attributes' first samples), after `owner`
 * (`user_id: ada.id`) when its resource is owned.
 */
export function fixtureValues(attrs: readonly Attribute[], owner?: string): string {
  return `{ ${[...(owner ? [owner] : []), fields(attrs, 0, false)].filter((f) => f !== "").join(", ")} }`;
}
