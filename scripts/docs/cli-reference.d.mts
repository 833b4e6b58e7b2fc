/** The types of cli-reference.mjs's exports, for its test (the script itself stays plain node). */
export const CLI_REFERENCE: string;
export function renderCliReference(
  cli: {
    COMMANDS: readonly {
      words: readonly string[];
      aliases: readonly (readonly string[])[];
      summary: string;
    }[];
    mainHelp(): string;
    runCli(argv: readonly string[], io: never): Promise<number>;
  },
  io: { memoryIO(options: { cwd: string; env?: Record<string, string> }): unknown },
): Promise<string>;
