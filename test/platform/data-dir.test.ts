// A data folder the service makes (DATA_DIR, e.g. `.data-2` as the second-start message suggests) is ignored by
// git and by biome, so `git status` and `npm test`'s lint stay clean; a folder that is someone else's is left alone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { prepareDataDir } from '../../src/db/data-dir.ts';
import { recordService } from '../../src/service-record.ts';

const root = join(import.meta.dirname, '../..');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(name: string) {
  const dir = join(root, `${name}-${process.pid}`);
  made.push(dir);
  return dir;
}

const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: root, encoding: 'utf8' });

it('a data folder the service makes inside the checkout shows in neither git status nor biome', () => {
  const dir = folder('.data-test');
  prepareDataDir(dir);
  recordService(dir, { pid: process.pid, command: 'start', api: 'http://127.0.0.1:3001/api/v1' });
  // What biome would refuse if it looked: unformatted JSON and code.
  writeFileSync(join(dir, 'unformatted.json'), '{"a":1,     "b":[1,2]}');
  writeFileSync(join(dir, 'lint.ts'), 'var x = 1;; debugger\n');
  const status = run('git', ['status', '--porcelain', '--untracked-files=all', '--', dir]);
  expect(status.status).toBe(0);
  expect(status.stdout).toBe('');
  const biome = run(join(root, 'node_modules/.bin/biome'), ['check', '--no-errors-on-unmatched', dir]);
  expect(biome.status, biome.stdout + biome.stderr).toBe(0);
  expect(biome.stdout + biome.stderr).toMatch(/Checked 0 files/);
});

it('a data folder of an earlier version (a cluster, no .gitignore) gets one; a folder of other things does not', () => {
  const earlier = folder('.data-earlier');
  mkdirSync(join(earlier, 'pg'), { recursive: true });
  prepareDataDir(earlier);
  expect(existsSync(join(earlier, '.gitignore'))).toBe(true);

  const someoneElses = folder('.data-someone');
  mkdirSync(someoneElses);
  writeFileSync(join(someoneElses, 'notes.txt'), 'mine');
  prepareDataDir(someoneElses);
  expect(existsSync(join(someoneElses, '.gitignore'))).toBe(false);
});
