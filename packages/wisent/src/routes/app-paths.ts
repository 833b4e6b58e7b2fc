import type { PathParams } from "./build-path.js";

/** `A | B` -> `A & B`. */
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** The `paths` of every route group `Routes` exports, as a union (`app` itself left out). */
type GroupPaths<Routes> = {
  [K in keyof Routes]: K extends "app"
    ? never
    : Routes[K] extends { readonly paths: infer P }
      ? P
      : never;
}[keyof Routes];

/**
 * The typed path helpers of an app, from the module that declares its routes (`src/app.ts`):
 * every helper of the resource groups it exports (`export const widgets = app.resource(...)`),
 * plus the helpers named in `Named` of routes declared with `app.get(...)` and friends, which
 * take any parameters (`rootPath` for `app.get("/", ...)`). What an app registers as its
 * `paths`, so that route names are typed wherever they are written.
 *
 * @example
 * declare module "wisent" {
 *   interface Register {
 *     paths: PathsOf<typeof import("./app.js"), "rootPath">;
 *   }
 * }
 */
export type PathsOf<Routes, Named extends string = never> = Intersect<GroupPaths<Routes>> & {
  [Name in Named]: (params?: PathParams) => string;
};
