import type { ErrorCodeInfo } from "../packages/wisent/src/base/error-codes.js";
import type { EnvironmentVariable } from "../packages/wisent/src/config/environment-variables.js";

export function environmentPage(variables: readonly EnvironmentVariable[]): string;
export function errorsPage(codes: Readonly<Record<string, ErrorCodeInfo>>): string;
export function pages(tables: {
  variables: readonly EnvironmentVariable[];
  codes: Readonly<Record<string, ErrorCodeInfo>>;
}): Record<string, string>;
