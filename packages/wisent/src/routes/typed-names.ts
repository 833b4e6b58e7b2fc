/**
 * Route names computed by the type checker, so path helpers of resources declared with
 * `app.resource(...)` are typed without a code-generation step. They mirror the runtime namer
 * (`routeNameForPath`) for resource paths; `typed-names.test.ts` checks the two agree.
 *
 * The singular of the collection path's last segment comes from the resource's param key
 * (`Resource<"widget_id">` -> `widget`), since singularizing is beyond the type system.
 */
import type { Acronym } from "../naming/acronyms.js";
import type { Operation, SingletonOperation } from "../resources/mapping.js";
import type { CollectionActions, KeptOperations, MemberActions } from "../resources/options.js";
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

type HasMethod<R, M extends string> = R extends { [k in M]: (...args: never[]) => unknown }
  ? true
  : false;

/** `O`'s kept operations as the typed helpers see them (`only`/`except`). */
type Keeps<O, Op extends Operation, All extends Operation = Operation> = Op &
  KeptOperations<O, All> extends never
  ? false
  : true;

/**
 * Typed path helpers for one resource, for the routes its options keep: New/Edit only when the
 * resource implements them, one helper per declared member or collection route. `MBase`/`MParams`
 * are where routes on one record live: the parent's member path, or for `shallow: true` the
 * group the parent was declared in.
 */
export type ResourcePaths<
  Base extends string[],
  P extends string,
  K extends string,
  Params extends string,
  R,
  O = object,
  MBase extends string[] = Base,
  MParams extends string = Params,
> = string extends K
  ? Record<string, PathHelper<string>>
  : (Keeps<O, "list" | "create"> extends true
      ? { [N in ResourceNames<Base, P, K>["list"]]: PathHelper<Params> }
      : unknown) &
      (Keeps<O, "show" | "update" | "destroy"> extends true
        ? { [N in ResourceNames<MBase, P, K>["show"]]: PathHelper<MParams | K> }
        : unknown) &
      ([HasMethod<R, "new">, Keeps<O, "new">] extends [true, true]
        ? { [N in ResourceNames<Base, P, K>["new"]]: PathHelper<Params> }
        : unknown) &
      ([HasMethod<R, "edit">, Keeps<O, "edit">] extends [true, true]
        ? { [N in ResourceNames<MBase, P, K>["edit"]]: PathHelper<MParams | K> }
        : unknown) & {
        [A in CollectionActions<O> as `${Camel<[...Words<A>, ...CollectionWords<Base, P, K>]>}Path`]: PathHelper<Params>;
      } & {
        [A in MemberActions<O> as `${Camel<[...Words<A>, ...MemberWords<MBase, P, K>]>}Path`]: PathHelper<
          MParams | K
        >;
      };

/** Typed path helpers of a singular resource at `P`: every route is named after it. */
export type SingletonPaths<
  Base extends string[],
  P extends string,
  Params extends string,
  R,
  O,
> = (Keeps<O, "show" | "create" | "update" | "destroy", SingletonOperation> extends true
  ? { [N in `${Camel<[...Base, ...Words<P>]>}Path`]: PathHelper<Params> }
  : unknown) &
  ([HasMethod<R, "new">, Keeps<O, "new", SingletonOperation>] extends [true, true]
    ? { [N in `${Camel<["new", ...Base, ...Words<P>]>}Path`]: PathHelper<Params> }
    : unknown) &
  ([HasMethod<R, "edit">, Keeps<O, "edit", SingletonOperation>] extends [true, true]
    ? { [N in `${Camel<["edit", ...Base, ...Words<P>]>}Path`]: PathHelper<Params> }
    : unknown) & {
    [A in MemberActions<O> as `${Camel<[...Words<A>, ...Base, ...Words<P>]>}Path`]: PathHelper<Params>;
  };

/** The client's name of a resource: its list route's name without `Path` (`widgetImages`). */
export type ResourceStem<
  Base extends string[],
  P extends string,
  K extends string,
> = string extends K
  ? string
  : ResourceNames<Base, P, K>["list"] extends `${infer Stem}Path`
    ? Stem
    : string;
