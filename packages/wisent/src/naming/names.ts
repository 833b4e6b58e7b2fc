import { WisentError } from "../base/wisent-error.js";
import { indefiniteArticle } from "./article.js";
import { camelize, pascalize, titleize, underscore } from "./casing.js";
import { pluralize, singularize } from "./inflection.js";
import { routeNameForPath } from "./route-name.js";
import { validateResourceName } from "./validate.js";

/** Route names of a resource's standard routes (as the App names them). */
export interface ResourceRouteNames {
  /** List and Create: `widgetsPath`. */
  readonly list: string;
  /** New: `newWidgetsPath`. */
  readonly new: string;
  /** Show, Update and Destroy: `widgetPath`. */
  readonly show: string;
  /** Edit: `editWidgetPath`. */
  readonly edit: string;
}

/** Every name derived from one resource name. Values in comments are for `admin/widget`. */
export interface Names {
  /** The name as given: `admin/widget`. */
  readonly input: string;
  /** Namespace parts, snake_case: `["admin"]`. */
  readonly namespace: readonly string[];
  /** snake_case singular, without namespace: `widget`. */
  readonly singular: string;
  /** snake_case plural, without namespace: `widgets`. */
  readonly plural: string;
  /** Model type, PascalCase singular, without namespace: `Widget`. */
  readonly model: string;
  /** PascalCase plural: `Widgets`. */
  readonly modelPlural: string;
  /** Variable for one record, camelCase: `widget`. */
  readonly modelVar: string;
  /** Variable for a list of records, camelCase: `widgets`. */
  readonly modelVarPlural: string;
  /** Database table: `widgets`. */
  readonly table: string;
  /** Resource class: `AdminWidgetsResource`. */
  readonly resourceClass: string;
  /** Path parameter: `admin_widget_id`. */
  readonly paramKey: string;
  /** Collection path (no trailing slash): `/admin/widgets`. */
  readonly urlPath: string;
  /** Member path template: `/admin/widgets/{admin_widget_id}`. */
  readonly memberPath: string;
  /** Templates (and locales) folder: `admin/widgets`. */
  readonly templateFolder: string;
  /** Actions file name without extension: `admin_widgets`. */
  readonly fileBase: string;
  /** Model file name without extension: `widget`. */
  readonly modelFileBase: string;
  /** Translation message id prefix: `widget` (as in `widget.created.success`). */
  readonly i18nKey: string;
  /** Singular for people: `Widget` (`User Profile`). */
  readonly human: string;
  /** Plural for people: `Widgets` (`User Profiles`). */
  readonly humanPlural: string;
  /** Singular for people in lower case, after its article: `a widget` (`an author`). */
  readonly humanWithArticle: string;
  /** Route names of the standard routes: `adminWidgetsPath`, `newAdminWidgetsPath`, ... */
  readonly routeNames: ResourceRouteNames;
  /** Migration name (after the timestamp): `create_widgets`. */
  readonly migrationName: string;
}

/**
 * Every name derived from a resource name given in any form (`widget`, `widgets`, `Widget`,
 * `user_profile`, `UserProfile`, `user-profile`, `admin/widget`). Throws an `Error` with
 * {@link validateResourceName}'s message when the name is invalid.
 * @example names("admin/widget").resourceClass // "AdminWidgetsResource"
 * @example names("person").routeNames.show // "personPath"
 */
export function names(input: string): Names {
  const problem = validateResourceName(input);
  if (problem !== undefined) throw new WisentError("E_INVALID_ARGUMENT", problem);

  const parts = input.split("/").map(underscore);
  const namespace = parts.slice(0, -1);
  const singular = singularize(parts[parts.length - 1]!);
  const plural = pluralize(singular);
  const qualifiedPlural = [...namespace, plural].join("_");
  const qualifiedSingular = [...namespace, singular].join("_");
  const paramKey = qualifiedSingular.endsWith("_id")
    ? qualifiedSingular
    : `${qualifiedSingular}_id`;
  const folder = [...namespace, plural].join("/");
  const urlPath = `/${folder}`;
  const memberPath = `${urlPath}/{${paramKey}}`;

  return Object.freeze({
    input,
    namespace: Object.freeze(namespace),
    singular,
    plural,
    model: pascalize(singular),
    modelPlural: pascalize(plural),
    modelVar: camelize(singular),
    modelVarPlural: camelize(plural),
    table: plural,
    resourceClass: `${pascalize(qualifiedPlural)}Resource`,
    paramKey,
    urlPath,
    memberPath,
    templateFolder: folder,
    fileBase: qualifiedPlural,
    modelFileBase: singular,
    i18nKey: singular,
    human: titleize(singular),
    humanPlural: titleize(plural),
    // The article by the words as written (an acronym is read letter by letter: "an SQL query").
    humanWithArticle: `${indefiniteArticle(titleize(singular))} ${titleize(singular).toLowerCase()}`,
    // Named from the real registered paths (trailing slash included), as the App names them.
    routeNames: Object.freeze({
      list: routeNameForPath(`${urlPath}/`, { collection: true }),
      new: routeNameForPath(`${urlPath}/new/`),
      show: routeNameForPath(`${memberPath}/`),
      edit: routeNameForPath(`${memberPath}/edit/`),
    }),
    migrationName: `create_${plural}`,
  });
}

/**
 * The names of a singular resource (Rails' `resource :profile`, Wisent's `app.singleton`): the
 * class, path, files and route names are singular, as there is one of it; the model names stay
 * those of {@link names}. There is no List route and no id (`routeNames.list` is `""`).
 * @example singularNames("profile").resourceClass // "ProfileResource"
 * @example singularNames("admin/setting").routeNames.edit // "editAdminSettingPath"
 */
export function singularNames(input: string): Names {
  const base = names(input);
  const qualifiedSingular = [...base.namespace, base.singular].join("_");
  const folder = [...base.namespace, base.singular].join("/");
  const urlPath = `/${folder}`;
  return Object.freeze({
    ...base,
    resourceClass: `${pascalize(qualifiedSingular)}Resource`,
    urlPath,
    memberPath: urlPath,
    templateFolder: folder,
    fileBase: qualifiedSingular,
    routeNames: Object.freeze({
      list: "",
      new: routeNameForPath(`${urlPath}/new/`),
      show: routeNameForPath(`${urlPath}/`),
      edit: routeNameForPath(`${urlPath}/edit/`),
    }),
  });
}
