import { requireDependency } from "../base/require-dependency.js";
import { WisentError } from "../base/wisent-error.js";

/**
 * Loads an optional peer dependency of the storage (the AWS SDK, sharp) on first use; missing, it
 * fails with the one `npm install` line that adds it.
 *
 * @example
 * const sharp = optionalDependency<typeof import("sharp")>("sharp", "an image variant", ["sharp"]);
 */
export function optionalDependency<T>(
  name: string,
  purpose: string,
  install: readonly string[],
): T {
  try {
    return requireDependency<T>(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = ["MODULE_NOT_FOUND", "ERR_MODULE_NOT_FOUND", "E_MISSING_DEPENDENCY"];
    if (!missing.includes(code ?? "")) throw error;
    throw new WisentError(
      "E_MISSING_DEPENDENCY",
      `${purpose} needs ${name}: npm install ${install.join(" ")}`,
      { cause: error },
    );
  }
}
