import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What {@link parseCommandArgs} returns: the parsed arguments, or the exit code to stop with. */
export type CommandArgs<T extends ParseArgsConfig> =
  | { ok: true; args: ReturnType<typeof parseArgs<T>> }
  | { ok: false; exitCode: number };

/**
 * Parse a subcommand's arguments the same way for every command: an unknown or malformed flag
 * prints the error and the usage to stderr (exit 2), `--help`/`-h` prints the usage (exit 0).
 * The config must declare `help: { type: 'boolean', short: 'h' }` for `--help` to be accepted.
 *
 * @example
 * ```ts
 * const parsed = parseCommandArgs('eval', USAGE, { args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
 * if (!parsed.ok) return parsed.exitCode;
 * const { values } = parsed.args;
 * ```
 */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, usage: string, config: T): CommandArgs<T> {
  let args: ReturnType<typeof parseArgs<T>>;
  try {
    args = parseArgs(config);
  } catch (err) {
    console.error(`sqlenv ${command}: ${(err as Error).message}\n\n${usage}`);
    return { ok: false, exitCode: 2 };
  }
  if ((args.values as { help?: boolean }).help) {
    console.log(usage);
    return { ok: false, exitCode: 0 };
  }
  return { ok: true, args };
}
