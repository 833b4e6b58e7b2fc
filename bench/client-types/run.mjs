/**
 * tsc time of a generated-style API app with N resources (default 100), without and with the
 * typed client of `wisent/client` in use (one call of every operation of every resource).
 *
 *   npm run build && node bench/client-types/run.mjs [resources]
 *
 * Each resource is the generator's own output (the widget-api golden files: model and actions,
 * names swapped), with a model of five typed fields; app.ts declares them all, exported as the
 * generator does. Both variants run `tsc --noEmit --extendedDiagnostics` once, in a fresh temp app
 * whose node_modules links to this repository's. Prints a Markdown table for bench/README.md.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));
// The client's resource names are the route names' stems, from the runtime namer (acronyms too).
const { routeNameForPath } = await import(join(repo, "packages/wisent/dist/naming/index.js"));
const golden = join(repo, "packages/wisent/src/cli/generate/fixtures/widget-api/src");
const count = Number(process.argv[2] ?? 100);
const tsc = join(repo, "node_modules/typescript/bin/tsc");

/** `aa`, `ab`, ...: distinct letter words (digits would change the route names' words). */
const word = (i) =>
  String.fromCharCode(97 + Math.floor(i / 26)) + String.fromCharCode(97 + (i % 26));

const MODEL_SCHEMA = `z.object({
    title: z.string().trim().min(1).max(255),
    description: z.string().nullable().default(null),
    quantity: z.preprocess((v) => (v === "" ? undefined : v), z.number().int()),
    active: z.preprocess((v) => (v === "" ? undefined : v), z.boolean().default(false)),
    released_on: z.preprocess((v) => (v === "" ? undefined : v), z.iso.date()),
  })`;

function makeApp(dir, withClient) {
  mkdirSync(join(dir, "src/models"), { recursive: true });
  mkdirSync(join(dir, "src/actions"), { recursive: true });
  const model = readFileSync(join(golden, "models/widget.ts.golden"), "utf8").replace(
    /z\.object\(\{[\s\S]*?\}\)/,
    MODEL_SCHEMA,
  );
  const actions = readFileSync(join(golden, "actions/widgets.ts.golden"), "utf8");
  const imports = [];
  const declarations = [];
  const calls = [];
  for (let i = 0; i < count; i++) {
    const w = word(i);
    const swap = (text) =>
      text
        .replaceAll("Widgets", `Item${w[0].toUpperCase()}${w[1]}s`)
        .replaceAll("Widget", `Item${w[0].toUpperCase()}${w[1]}`)
        .replaceAll("widgets", `item_${w}s`)
        .replaceAll("widget", `item_${w}`);
    writeFileSync(join(dir, `src/models/item_${w}.ts`), swap(model));
    writeFileSync(join(dir, `src/actions/item_${w}s.ts`), swap(actions));
    const cls = `Item${w[0].toUpperCase()}${w[1]}sResource`;
    const stem = routeNameForPath(`/item_${w}s`, { collection: true }).replace(/Path$/, "");
    imports.push(`import { ${cls} } from "./actions/item_${w}s.js";`);
    declarations.push(`export const ${stem} = app.resource("/item_${w}s", new ${cls}());`);
    const key = `item_${w}_id`;
    calls.push(
      "  {",
      `  await api.${stem}.list({ page: 1 });`,
      `  await api.${stem}.show({ ${key}: "1" });`,
      `  const created = await api.${stem}.create({ title: "t", quantity: 1, released_on: "2024-05-01" });`,
      `  if (created.ok) await api.${stem}.update({ ${key}: created.data.id }, { title: created.data.title });`,
      `  else if (created.status === 422) console.log(created.errors.title);`,
      `  await api.${stem}.destroy({ ${key}: "1" });`,
      "  }",
    );
  }
  writeFileSync(
    join(dir, "src/app.ts"),
    `import { App } from "wisent";\n${imports.join("\n")}\n\nexport const app = new App({ name: "bench", api: true });\n${declarations.join("\n")}\n`,
  );
  if (withClient) {
    writeFileSync(
      join(dir, "src/client-use.ts"),
      `import { createClient } from "wisent/client";\n\nconst api = createClient<typeof import("./app.js")>("http://127.0.0.1:3000");\n\nexport async function everyOperation(): Promise<void> {\n${calls.join("\n")}\n}\n`,
    );
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    readFileSync(join(repo, "packages/wisent/templates/app/common/tsconfig.json.tpl"), "utf8"),
  );
  writeFileSync(join(dir, "package.json"), '{ "name": "bench", "type": "module" }\n');
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"), "dir");
}

function measure(withClient) {
  const dir = mkdtempSync(join(tmpdir(), "wisent-client-types-"));
  try {
    makeApp(dir, withClient);
    const started = process.hrtime.bigint();
    const run = spawnSync(process.execPath, [tsc, "--noEmit", "--extendedDiagnostics", "-p", "."], {
      cwd: dir,
      encoding: "utf8",
    });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    if (run.status !== 0) throw new Error(`tsc failed:\n${run.stdout}${run.stderr}`);
    const stat = (name) => run.stdout.match(new RegExp(`^${name}:\\s+(.+)$`, "m"))?.[1]?.trim();
    return {
      wall,
      check: stat("Check time"),
      total: stat("Total time"),
      types: stat("Types"),
      instantiations: stat("Instantiations"),
      memory: stat("Memory used"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const without = measure(false);
const withClient = measure(true);
console.log(
  `${count} resources, Node ${process.version}, TypeScript ${JSON.parse(readFileSync(join(repo, "node_modules/typescript/package.json"), "utf8")).version}\n`,
);
console.log("| variant | wall | tsc total | check | types | instantiations | memory |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [name, r] of [
  ["without the client", without],
  ["with the client in use", withClient],
]) {
  console.log(
    `| ${name} | ${r.wall.toFixed(2)} s | ${r.total} | ${r.check} | ${r.types} | ${r.instantiations} | ${r.memory} |`,
  );
}
console.log(`\nwith / without (wall): ${(withClient.wall / without.wall).toFixed(2)}x`);
