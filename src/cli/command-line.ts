// A CLI command line the service prints for a person to copy (the start banner's `key create`). It must work as
// printed in the shell the service was started from: the CLI finds the database through the same environment,
// so whatever of it differs from the defaults is written in front of the command.
import type { Config } from '../config.ts';

/** Quoted for a POSIX shell when it holds anything but plain characters. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The environment the CLI needs to reach the service's database, as `NAME=value ` words. */
function databaseEnvironment(config: Config): string {
  if (config.DATABASE_URL) {
    // A password is not printed (the banner may end up in a log): the CLI then reads it from DATABASE_URL as
    // exported in this shell.
    const url = new URL(config.DATABASE_URL);
    return url.password ? 'DATABASE_URL="$DATABASE_URL" ' : `DATABASE_URL=${shellQuote(config.DATABASE_URL)} `;
  }
  // The CLI joins the embedded server of DATA_DIR wherever it listens (its postmaster.pid says the port).
  return config.DATA_DIR === '.data' ? '' : `DATA_DIR=${shellQuote(config.DATA_DIR)} `;
}

export function keyCreateCommand(config: Config, companyId: string): string {
  return `${databaseEnvironment(config)}npm run -s cli -- key create --company ${companyId} --scopes all`;
}
