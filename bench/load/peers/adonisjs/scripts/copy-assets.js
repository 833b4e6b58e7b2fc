// What `node ace build` adds to the compiled app: the views and the package.json (its `imports`).
import { cpSync } from "node:fs";

cpSync("resources", "build/resources", { recursive: true });
cpSync("package.json", "build/package.json");
