// A command on the database: the installation's own (DATABASE_URL) or the embedded one, migrated when it is ours.
import { loadConfig } from '../config.ts';
import { createDb, createTenantPool } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { FileStorages } from '../files/storages.ts';
import type { Command } from './args.ts';
import { runCommand } from './commands.ts';
import { openCliDatabase } from './database.ts';
import { type CliIo, write } from './io.ts';

type DatabaseCommand = Exclude<Command, { name: 'help' } | { name: 'events tail' }>;

/** Runs `command` and prints its output; answers the exit code. */
export async function runDatabaseCommand(command: DatabaseCommand, io: CliIo): Promise<number> {
  const config = loadConfig(io.env);
  const database = await openCliDatabase(config);
  try {
    // Migrations are idempotent: always for migrate and demo, and whenever the database is our own embedded one.
    if (command.name === 'migrate' || command.name === 'demo' || database.embedded) await runMigrations(database.url);
    if (command.name === 'migrate') {
      await write(io.stdout, command.json ? '{"ok":true}\n' : 'Migrations applied.\n');
      return 0;
    }
    const { sql, db } = createDb(database.url, 2);
    const tenantSql = createTenantPool(database.url, 2);
    const storages = FileStorages.fromConfig(config);
    try {
      const output = await runCommand(
        { db, sql, tenantSql, fileStorages: storages, config },
        command,
        (line) => write(io.stdout, `${line}\n`),
        io.stderr,
      );
      // null: the command wrote its own lines (an export).
      if (output) await write(io.stdout, command.json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
      return output?.exitCode ?? 0;
    } finally {
      await Promise.all([sql.end({ timeout: 5 }), tenantSql.end({ timeout: 5 })]);
    }
  } finally {
    await database.stop();
  }
}
