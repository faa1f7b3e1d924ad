// The folder the service keeps its data in (DATA_DIR). Made inside a checkout (`.data-2`, as the second-start
// message suggests), it must not show in `git status` nor be linted: the folder ignores itself with a `.gitignore`
// of `*`, which git honours and biome too (biome.json reads ignore files), wherever the folder is and whatever
// it is called.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Makes `dataDir` if needed. It gets its `.gitignore` when the service makes it, or when it already holds a
 * cluster (`pg`) made before: never in a folder of someone else's (DATA_DIR=. would hide the whole checkout).
 */
export function prepareDataDir(dataDir: string): void {
  const made = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const ignore = join(dataDir, '.gitignore');
  if ((made || existsSync(join(dataDir, 'pg'))) && !existsSync(ignore)) {
    writeFileSync(ignore, '# Made by the service: its data folder is never committed nor linted.\n*\n');
  }
}
