import type { RouteGuards } from "../app/route-guards.js";
import { checkOwnedReferences } from "./owned-references.js";
import { parentGuard } from "./parent-guard.js";
import { requireAuthentication } from "./require-authentication.js";
import { resourceGuard } from "./resource-guard.js";

/**
 * Authentication's guards for the routing DSL: `requireAuthentication()` on a resource's secured
 * routes, the ownership and policy guards, and the check of owned references. `authentication()`
 * and `tokenAuthentication()` bring them; the App installs them (see app/route-guards.ts).
 */
export const AUTH_ROUTE_GUARDS: RouteGuards = {
  requireAuthentication: () => requireAuthentication(),
  resourceGuard,
  parentGuard,
  checkRoutes: checkOwnedReferences,
};
