// postgres.js 3.4.9 is patched at install (patches/postgres+3.4.9.patch, by patch-package in `postinstall`): unpatched,
// a database connection lost at the wrong moment ends the process (porsager/postgres#1208) or leaves queries
// waiting for ever. An install with `--ignore-scripts` skips the patch silently; the service says so at start.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MARKER = 'patches/postgres+3.4.9.patch';

/** Whether the postgres.js this process loads carries the patch (its connection module names the patch file). */
export function driverPatched(): boolean {
  try {
    const connection = new URL('./connection.js', import.meta.resolve('postgres'));
    return readFileSync(fileURLToPath(connection), 'utf8').includes(MARKER);
  } catch {
    return false;
  }
}
