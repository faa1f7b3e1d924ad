// One run of the operator CLI: `npm run cli -- <command> [--json]` (see USAGE in args.ts). With --json exactly one
// JSON object goes to stdout; everything else (errors, database logs) goes to stderr. The streams and environment
// are given, so that tests run commands in their own process (main.ts is the process around this).
import { type Command, parseCommand, USAGE, UsageError } from './args.ts';
import { type CliIo, write } from './io.ts';

/** The exit code of the command `argv`: 0, 1 for a failure, 2 for a mistake in the arguments. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) {
      await write(io.stderr, `error: ${describe(error)}\n`);
      return 1;
    }
    // One line: the mistake, and where the usage is (30 lines of it would bury the mistake).
    await write(io.stderr, `error: ${error.message} (see npm run cli -- --help)\n`);
    return 2;
  }
  try {
    if (command.name === 'help') {
      await write(io.stdout, `${USAGE}\n`);
      return 0;
    }
    // Imported only for the command that needs them: the service's modules take seconds to load, which a
    // mistake in the arguments or --help need not wait for.
    if (command.name === 'events tail') return await (await import('./events-tail.ts')).tailUntilStopped(command, io);
    return await (await import('./database-command.ts')).runDatabaseCommand(command, io);
  } catch (error) {
    await write(io.stderr, `error: ${describe(error)}\n`);
    return 1;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // A failed query (drizzle's "Failed query: <sql>") carries the database's own message as its cause.
  if (error.cause instanceof Error) return describe(error.cause);
  const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
  const message = error.message || (error instanceof AggregateError ? error.errors.map(describe).join('; ') : '');
  return `${message || error.name}${code}`;
}
