/**
 * Route names computed by the type checker, so path helpers of resources declared with
 * `app.resource(...)` are typed without a code-generation step. They mirror the runtime namer
 * (`routeNameForPath`) for resource paths; `typed-names.test.ts` checks the two agree.
 *
 * The singular of the collection path's last segment comes from the resource's param key
 * (`Resource<"widget_id">` -> `widget`), since singularizing is beyond the type system.
 */
import type { Acronym } from "../naming/acronyms.js";
import type { ParamValue, PathParams } from "./build-path.js";

/** `a/b-c_d` -> `["a", "b", "c", "d"]`; `{param}` segments and empty words are dropped. */
export type Words<S extends string> = S extends `${infer Head}/${infer Tail}`
  ? [...Words<Head>, ...Words<Tail>]
  : S extends `${infer Head}-${infer Tail}`
    ? [...Words<Head>, ...Words<Tail>]
    : S extends `${infer Head}_${infer Tail}`
      ? [...Words<Head>, ...Words<Tail>]
      : S extends "" | `{${string}`
        ? []
        : [S];

type Later<W extends string> = Uppercase<W> extends Acronym ? Uppercase<W> : Capitalize<W>;
type CamelRest<W extends string[]> = W extends [infer H extends string, ...infer T extends string[]]
  ? `${Later<H>}${CamelRest<T>}`
  : "";
/** flect's Camelize on a word list: first word lower-cased, acronyms upper-cased after it. */
export type Camel<W extends string[]> = W extends [
  infer H extends string,
  ...infer T extends string[],
]
  ? `${Lowercase<H>}${CamelRest<T>}`
  : "";

type Last<T extends string[]> = T extends [...string[], infer L extends string] ? L : never;
type Init<T extends string[]> = T extends [...infer I extends string[], string] ? I : [];
type LastN<T extends string[], N extends unknown[]> = T["length"] extends N["length"]
  ? T
  : T extends [string, ...infer Rest extends string[]]
    ? LastN<Rest, N>
    : T;
type KeyBase<K extends string> = K extends `${infer B}_id` ? B : K;
type LastSegment<P extends string> = P extends `${string}/${infer Rest}`
  ? Rest extends ""
    ? LastSegment<P extends `${infer Trimmed}/` ? Trimmed : P>
    : LastSegment<Rest>
  : P;

/** Words of the member name: the path's words with its last segment made singular. */
type SingularWords<P extends string, K extends string> = LastN<
  Words<KeyBase<K>>,
  Words<LastSegment<P>>
>;
type DropLast<T extends string[], N extends unknown[]> = N extends [unknown, ...infer Rest]
  ? DropLast<Init<T>, Rest>
  : T;
type MemberWords<Base extends string[], P extends string, K extends string> = [
  ...Base,
  ...DropLast<Words<P>, Words<LastSegment<P>>>,
  ...SingularWords<P, K>,
];
type CollectionWords<Base extends string[], P extends string, K extends string> = [
  ...Base,
  ...Words<P>,
  // An uncountable last word (singular = plural, `news`) gets `index`, as the runtime namer does.
  ...(Last<Words<P>> extends Last<SingularWords<P, K>> ? ["index"] : []),
];

/** A path helper: parameters required by the template, anything else goes to the query string. */
export type PathHelper<Required extends string> = [Required] extends [never]
  ? (params?: PathParams) => string
  : (params: { readonly [Key in Required]: ParamValue } & PathParams) => string;

/** The standard route names of a resource at `P` under name words `Base`, keyed by operation. */
export interface ResourceNames<Base extends string[], P extends string, K extends string> {
  list: `${Camel<CollectionWords<Base, P, K>>}Path`;
  new: `${Camel<["new", ...Base, ...Words<P>]>}Path`;
  show: `${Camel<MemberWords<Base, P, K>>}Path`;
  edit: `${Camel<["edit", ...MemberWords<Base, P, K>]>}Path`;
}

/** The member-name words a nested resource builds on (`widget` under `/widgets/{widget_id}`). */
export type MemberBase<Base extends string[], P extends string, K extends string> = MemberWords<
  Base,
  P,
  K
>;

/** Typed path helpers for one resource; New/Edit only when the resource implements them. */
export type ResourcePaths<
  Base extends string[],
  P extends string,
  K extends string,
  Params extends string,
  R,
> = string extends K
  ? Record<string, PathHelper<string>>
  : { [N in ResourceNames<Base, P, K>["list"]]: PathHelper<Params> } & {
      [N in ResourceNames<Base, P, K>["show"]]: PathHelper<Params | K>;
    } & (R extends { new: (...args: never[]) => unknown }
        ? { [N in ResourceNames<Base, P, K>["new"]]: PathHelper<Params> }
        : unknown) &
      (R extends { edit: (...args: never[]) => unknown }
        ? { [N in ResourceNames<Base, P, K>["edit"]]: PathHelper<Params | K> }
        : unknown);
