#!/usr/bin/env node
// `npm create wisent@latest myapp -- --api`: npm installs this package with the `wisent` of the
// same version, and runs this bin, which makes the app with wisent's own `wisent new` code.
import { npmCreate } from "wisent/create-app";

process.exitCode = await npmCreate(process.argv.slice(2));
