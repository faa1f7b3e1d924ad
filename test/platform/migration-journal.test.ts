// drizzle's migrator applies a migration only when its journal time (`when`) is later than the newest one a
// database has run, and /readyz takes the newest `when` as this release's: migrations merged from parallel work
// must keep their times in the order of their numbers, or an upgraded database silently skips one.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const journal: { entries: { idx: number; tag: string; when: number }[] } = JSON.parse(
  readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
);

it('numbers the migrations 0, 1, 2, … with strictly increasing times', () => {
  journal.entries.forEach((entry, index) => {
    expect(entry.idx, entry.tag).toBe(index);
    expect(entry.tag.startsWith(String(index).padStart(4, '0')), entry.tag).toBe(true);
    if (index > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[index - 1].when);
  });
});

it('has one SQL file per journal entry and no other', async () => {
  const { readdirSync } = await import('node:fs');
  const files = readdirSync(new URL('../../drizzle/', import.meta.url)).filter((name) => name.endsWith('.sql'));
  expect(files.sort()).toEqual(journal.entries.map((entry) => `${entry.tag}.sql`).sort());
});
