import { migrationFileName } from "../../data/migrations.js";
import { JOBS_DATABASE_LINE, JOBS_MIGRATION_NAME } from "./job-plan.js";
import type { AppEdit, FileGroup, PlannedFile } from "./resource-plan.js";
import { IMPORTS_MARKER, RESOURCES_MARKER } from "./resource-plan.js";

/** The key of `wisent generate authentication` in .wisent/generated.json. */
export const AUTHENTICATION_RECORD = "authentication";

/** What to generate: a web app's sign-in with sessions, or an API app's access tokens. */
export interface AuthenticationRequest {
  readonly api: boolean;
  readonly command: string;
  /** The migrations' file names, or the time to name them by. */
  readonly migrations: readonly string[] | Date;
  /**
   * The jobs tables' migration to write (a web app mails its reset links through a job), or the
   * time to name it by; none when the app has it (and for destroy, which keeps it).
   */
  readonly jobsMigration?: string | Date | undefined;
}

/** The manifest of `generate authentication`: files, and lines in src/app.ts and the layout. */
export interface AuthenticationPlan {
  readonly request: AuthenticationRequest;
  /** What the templates read: the command line, and whether the users verify their email (web). */
  readonly data: { readonly command: string; readonly verification: boolean };
  readonly files: readonly PlannedFile[];
  readonly edits: readonly AppEdit[];
  /**
   * The optional peer dependencies of wisent the generated code needs (a web app's reset mail:
   * `nodemailer`), added to the app's package.json when it does not list them.
   */
  readonly dependencies: readonly string[];
}

/** Where `app.use(signedInUser)` goes: after the app-wide middleware, before the first route. */
export const FIRST_ROUTE_MARKER = 'app.get("/", HomeHandler);';

const WEB: readonly [FileGroup, string][] = [
  ["model", "shared/src/models/user.ts.eta"],
  ["migration", "shared/migrations/__users__.ts.eta"],
  ["actions", "web/src/authentication.ts.eta"],
  ["actions", "web/src/actions/sessions.tsx.eta"],
  ["actions", "web/src/actions/registrations.tsx.eta"],
  ["actions", "web/src/actions/passwords.tsx.eta"],
  ["actions", "web/src/actions/verifications.tsx.eta"],
  ["templates", "web/src/templates/sessions/new.tsx.eta"],
  ["templates", "web/src/templates/sessions/account-links.tsx.eta"],
  ["templates", "web/src/templates/sessions/verification-banner.tsx.eta"],
  ["templates", "web/src/templates/registrations/new.tsx.eta"],
  ["templates", "web/src/templates/registrations/show.tsx.eta"],
  ["templates", "web/src/templates/registrations/edit.tsx.eta"],
  ["templates", "web/src/templates/passwords/new.tsx.eta"],
  ["templates", "web/src/templates/passwords/edit.tsx.eta"],
  ["templates", "web/src/templates/verifications/new.tsx.eta"],
  ["templates", "web/src/templates/verifications/show.tsx.eta"],
  ["locales", "web/src/locales/authentication.en-US.json.eta"],
  ["tests", "shared/src/models/user.test.ts.eta"],
  ["tests", "web/src/actions/sessions.test.ts.eta"],
  ["tests", "web/src/actions/registrations.test.ts.eta"],
  ["tests", "web/src/actions/passwords.test.ts.eta"],
  ["tests", "web/src/actions/verifications.test.ts.eta"],
];

const API: readonly [FileGroup, string][] = [
  ["model", "shared/src/models/user.ts.eta"],
  ["model", "api/src/models/access-token.ts.eta"],
  ["migration", "shared/migrations/__users__.ts.eta"],
  ["migration", "api/migrations/__access_tokens__.ts.eta"],
  ["actions", "api/src/authentication.ts.eta"],
  ["actions", "api/src/actions/tokens.ts.eta"],
  ["actions", "api/src/actions/users.ts.eta"],
  ["tests", "shared/src/models/user.test.ts.eta"],
  ["tests", "api/src/actions/tokens.test.ts.eta"],
];

const API_LINES = {
  imports: [
    'import { CreateToken, RevokeToken } from "./actions/tokens.js";',
    'import { UsersResource } from "./actions/users.js";',
    'import { signedInOnly, signedInUser } from "./authentication.js";',
  ],
  use: "app.use(signedInUser);",
  resources: [
    'export const user = app.singleton("/user", new UsersResource(), { only: ["create", "show"], authenticate: ["show"] });',
    'app.post("/tokens", CreateToken);',
    'app.group("/tokens/current").use(signedInOnly).delete("/", RevokeToken);',
  ],
};

const WEB_LINES = {
  imports: [
    'import { PasswordsResource } from "./actions/passwords.js";',
    'import { RegistrationsResource } from "./actions/registrations.js";',
    'import { SessionsResource } from "./actions/sessions.js";',
    'import { VerificationsResource } from "./actions/verifications.js";',
    'import { signedInUser } from "./authentication.js";',
  ],
  use: "app.use(signedInUser);",
  resources: [
    'export const userSession = app.singleton("/session", new SessionsResource(), { only: ["new", "create", "destroy"] });',
    'export const registration = app.singleton("/registration", new RegistrationsResource(), { only: ["new", "create", "show", "edit", "update"], authenticate: ["show", "edit", "update"] });',
    'export const passwords = app.resource("/passwords", new PasswordsResource(), { only: ["new", "create", "edit", "update"] });',
    'export const verifications = app.resource("/verifications", new VerificationsResource(), { only: ["new", "create", "show", "update"] });',
  ],
};

/**
 * The manifest of `wisent generate authentication`: every file (template and destination) and
 * every inserted line. `generate` writes it, `destroy` removes it, so they cannot drift.
 *
 * @example
 * authenticationPlan({ api: false, command: "wisent generate authentication", migrations: new Date() })
 *   .files.map((f) => f.path); // ["src/models/user.ts", "migrations/..._create_users.ts", ...]
 */
export function authenticationPlan(request: AuthenticationRequest): AuthenticationPlan {
  const migrations = Array.isArray(request.migrations)
    ? request.migrations
    : ["create_users", "create_access_tokens"].map((name, i) =>
        migrationFileName(name, new Date((request.migrations as Date).getTime() + i * 1000)),
      );
  const place = (template: string): string =>
    template
      .replace(/^[a-z]+\//, "")
      .replace(/\.eta$/, "")
      .replace("__users__.ts", migrations[0]!)
      .replace("__access_tokens__.ts", migrations[1] ?? "");
  const files = (request.api ? API : WEB).map(([group, template]) => ({
    template,
    path: place(template),
    group,
  }));
  if (!request.api && request.jobsMigration !== undefined) {
    const file =
      typeof request.jobsMigration === "string"
        ? request.jobsMigration
        : migrationFileName(JOBS_MIGRATION_NAME, request.jobsMigration);
    files.push({
      template: "../job/migrations/__jobs_table__.ts.eta",
      path: `migrations/${file}`,
      group: "migration",
    });
  }
  const lines = request.api ? API_LINES : WEB_LINES;
  const edits: AppEdit[] = [
    ...lines.imports.map((line) => ({ path: "src/app.ts", marker: IMPORTS_MARKER, line })),
    { path: "src/app.ts", marker: FIRST_ROUTE_MARKER, line: lines.use },
    ...lines.resources.map((line) => ({ path: "src/app.ts", marker: RESOURCES_MARKER, line })),
  ];
  // The reset mail is a job: the app's jobs live in its database (kept by destroy, shared).
  if (!request.api)
    edits.push({ path: "src/app.ts", marker: RESOURCES_MARKER, line: JOBS_DATABASE_LINE });
  edits.push(
    {
      path: "src/templates/layout.tsx",
      marker: 'import { ResourceLinks } from "./resource-links.js";',
      line: 'import { AccountLinks } from "./sessions/account-links.js";',
      optional: true,
    },
    {
      path: "src/templates/layout.tsx",
      marker: "</nav>",
      line: "<AccountLinks />",
      optional: true,
    },
  );
  // A signed-in user whose email is not verified sees a banner above every page.
  if (!request.api)
    edits.push(
      {
        path: "src/templates/layout.tsx",
        marker: 'import { ResourceLinks } from "./resource-links.js";',
        line: 'import { VerificationBanner } from "./sessions/verification-banner.js";',
        optional: true,
      },
      {
        path: "src/templates/layout.tsx",
        marker: "{children}",
        line: "<VerificationBanner />",
        optional: true,
      },
    );
  const dependencies = request.api ? [] : ["nodemailer"];
  return {
    request,
    data: { command: request.command, verification: !request.api },
    files,
    edits,
    dependencies,
  };
}
