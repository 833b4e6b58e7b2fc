import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Eta } from "eta";
import type { ResourcePlan } from "./resource-plan.js";

/** The resource templates (packages/wisent/templates/resource), from src/ and from dist/ alike. */
export const RESOURCE_TEMPLATES = fileURLToPath(
  new URL("../../../templates/resource/", import.meta.url),
);

// `<% %>` never occurs in TypeScript or JSX, so generated code needs no escaping; `-%>` eats the
// newline after a control line.
const eta = new Eta({ autoEscape: false, autoTrim: false, cache: true, useWith: false });
const compiled = new Map<string, ReturnType<Eta["compile"]>>();

/** Renders one template file (a path under templates/resource/) with the plan's data. */
export function renderTemplate(template: string, data: object, root = RESOURCE_TEMPLATES): string {
  const file = root + template;
  let fn = compiled.get(file);
  if (!fn) {
    fn = eta.compile(readFileSync(file, "utf8"));
    compiled.set(file, fn);
  }
  return fn.call(eta, data as Record<string, unknown>);
}

/** Every file of a plan rendered: destination path -> contents. */
export function renderPlan(plan: ResourcePlan, root = RESOURCE_TEMPLATES): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of plan.files) out.set(file.path, renderTemplate(file.template, plan.data, root));
  return out;
}
