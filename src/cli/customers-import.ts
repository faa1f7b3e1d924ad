// `customers import FILE.csv|FILE.jsonl --company ID [--atomic]`: the file's lines through the batch upsert of
// POST /customers/batch (readBatch and runBatch: the same checks, matching, events and fan-out jobs), 100 lines
// per transaction, each line on its own (a bad line fails alone, a CSV line that is no record of the header's
// columns too). A line naming a customer or email address an earlier line of the file named fails as
// duplicate_in_batch, wherever it stands (the batches share what earlier ones claimed). With --atomic the whole file
// is one transaction and one failed line imports nothing, as `atomic: true` does for a batch. A progress bar on
// stderr while it runs; the report lists every failed line with its field errors. A CSV column `metadata.<key>` sets
// that key of the customer's metadata (merged as the batch merges it).
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { SingleBar } from 'cli-progress';
import { parse } from 'csv-parse';
import type { Db } from '../db/client.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import { type EarlierClaims, readBatch, runBatch } from '../http/batch.ts';
import { localize } from '../http/message-catalogue.ts';
import type { ApiProblem } from '../http/problems.ts';
import { customerUpsert } from '../resources/customers/batch.ts';

/** As many lines as the API takes in one batch. */
const BATCH = 100;

/** A CSV line the parser could not read as a record of the header's columns (csv-parse's reason). */
class MalformedLine {
  constructor(readonly reason: string) {}
}

type Line = { line: number; item: unknown; bytes: number };
export type FailedLine = { line: number; errors: { field: string | null; code: string; detail: string }[] };
export type ImportReport = {
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** --atomic and a line failed: nothing was imported (the counts above are then 0). */
  rolled_back: boolean;
  failures: FailedLine[];
};

/** A column `metadata.<key>` of a CSV file: that key of the item's metadata (a JSON line sends the object itself). */
const METADATA_COLUMN = /^metadata\.(.+)$/;

/**
 * A CSV record as a batch item: an empty cell is left out (the field, or the metadata key, keeps its value), and
 * the `metadata.<key>` columns are gathered into `metadata`.
 */
function itemOfCsv(record: Record<string, string>): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  const metadata: [string, string][] = [];
  for (const [column, value] of Object.entries(record)) {
    if (value === '') continue;
    const key = METADATA_COLUMN.exec(column)?.[1];
    if (key === undefined) item[column] = value;
    else metadata.push([key, value]);
  }
  // fromEntries: a key such as `__proto__` stays a key, for the batch's check to judge.
  if (metadata.length > 0) item.metadata = Object.fromEntries(metadata);
  return item;
}

/** The file's records with their line numbers: JSON Lines, or CSV with a header row (an empty cell: left out). */
async function* recordsOf(file: string, format: 'csv' | 'jsonl'): AsyncGenerator<Line> {
  if (format === 'jsonl') {
    let line = 0;
    for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
      line++;
      if (text.trim() === '') continue;
      let item: unknown;
      try {
        item = JSON.parse(text);
      } catch {
        item = new SyntaxError('not a JSON value');
      }
      yield { line, item, bytes: Buffer.byteLength(text) + 1 };
    }
    return;
  }
  // A line that is no record (another number of columns, a stray quote) is skipped by the parser and reported here
  // at its line; the lines after it import as usual.
  const parser = createReadStream(file).pipe(
    parse({ columns: true, bom: true, skip_empty_lines: true, info: true, skip_records_with_error: true }),
  );
  const skipped: Line[] = [];
  parser.on('skip', (error: Error & { lines?: number }) => {
    skipped.push({ line: error.lines ?? 0, item: new MalformedLine(error.message), bytes: 0 });
  });
  let bytes = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number; bytes: number };
    }>) {
      yield* skipped.splice(0);
      const item = itemOfCsv(record);
      yield { line: info.lines, item, bytes: info.bytes - bytes };
      bytes = info.bytes;
    }
  } catch (error) {
    // A quote opened and never closed takes the rest of the file into one field: that line fails, nothing follows.
    const at = error instanceof Error && 'lines' in error && typeof error.lines === 'number' ? error.lines : 0;
    yield* skipped.splice(0);
    yield { line: at, item: new MalformedLine(error instanceof Error ? error.message : String(error)), bytes: 0 };
    return;
  }
  yield* skipped.splice(0);
}

const NUL = '\u0000';

/** A line the batch cannot take at all (not JSON or CSV, text PostgreSQL cannot store): failed before it is sent. */
function unreadable(item: unknown): FailedLine['errors'] | null {
  if (item instanceof SyntaxError)
    return [{ field: null, code: 'invalid_json', detail: 'The line is not valid JSON.' }];
  if (item instanceof MalformedLine)
    return [
      {
        field: null,
        code: 'invalid_csv',
        detail: `The line is not a CSV record of the header's columns: ${item.reason}`,
      },
    ];
  if (JSON.stringify(item).includes('\\u0000') || JSON.stringify(item).includes(NUL)) {
    return [{ field: null, code: 'invalid_format', detail: 'The line contains the character U+0000 (NUL).' }];
  }
  return null;
}

/** The field errors of a failed item, pointers made relative to the line (`/items/7/email` → `email`). */
function errorsOf(problem: ApiProblem, earlierLine: number | undefined): FailedLine['errors'] {
  const errors = problem.extras.errors ?? [];
  if (errors.length === 0)
    return [
      { field: null, code: problem.code, detail: problem.detail ? localize(problem.detail, 'en') : problem.code },
    ];
  return errors.map((error) => ({
    field: error.pointer === null ? null : error.pointer.replace(/^\/items\/\d+\/?/, '') || null,
    code: error.code,
    detail:
      error.code === 'duplicate_in_batch' && earlierLine !== undefined
        ? `Line ${earlierLine} of the file already names this customer or email address.`
        : localize(error.detail, 'en'),
  }));
}

/** The id and the email address (lower case) a line names, to find the earlier line that named them. */
function namesOf(item: unknown): string[] {
  if (typeof item !== 'object' || item === null) return [];
  const names: string[] = [];
  if ('id' in item && typeof item.id === 'string') names.push(item.id);
  if ('email' in item && typeof item.email === 'string') names.push(item.email.toLowerCase());
  return names;
}

/**
 * The time left after `elapsed` seconds with `done` of `total` bytes read, at the pace of the whole run so far
 * ("1m 05s", "42s"): lines are read in bursts and written a batch at a time, so the last few lines' pace (the
 * progress bar's own estimate) said "0s left" at 17 %.
 */
export function estimateLeft(elapsed: number, done: number, total: number): string {
  if (done <= 0) return '?';
  const seconds = Math.round((elapsed / done) * Math.max(total - done, 0));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

export async function importCustomers(
  db: Db,
  companyId: string,
  file: string,
  format: 'csv' | 'jsonl',
  options: { atomic?: boolean; progress?: NodeJS.WritableStream } = {},
): Promise<ImportReport> {
  const total = statSync(file).size || 1;
  const bar = new SingleBar({
    stream: options.progress ?? process.stderr,
    format: 'customers import [{bar}] {percentage}% | {lines} lines | {failed} failed | {left} left',
    hideCursor: true,
    // Into a log too (not a terminal): a line every few seconds, so a long import still shows it is moving.
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  const started = Date.now();
  const left = (done: number) => estimateLeft((Date.now() - started) / 1000, done, total);

  /** One run over the file in `run`: every batch in a transaction of its own, or all in one (--atomic). */
  const pass = async (run: <T>(work: (tx: Tx) => Promise<T>) => Promise<T>) => {
    const report: ImportReport = {
      lines: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
      rolled_back: false,
      failures: [],
    };
    // What earlier batches named, and on which line: a later line naming it again is a duplicate.
    const earlier = { rows: new Set<string>(), keys: new Set<string>() } satisfies EarlierClaims;
    const lineOf = new Map<string, number>();
    const fail = (line: number, errors: FailedLine['errors']) => {
      report.failed++;
      report.failures.push({ line, errors });
    };
    const flush = async (lines: Line[]) => {
      const outcomes = await run((tx) =>
        runBatch(
          tx,
          companyId,
          customerUpsert,
          readBatch(customerUpsert.schemas, { items: lines.map((l) => l.item) }),
          false,
          earlier,
        ),
      );
      outcomes.forEach((o, i) => {
        const line = lines[i]?.line ?? 0;
        if (o.outcome === 'failed') {
          const named = namesOf(lines[i]?.item).map((name) => lineOf.get(name));
          fail(
            line,
            errorsOf(
              o.problem,
              named.find((n) => n !== undefined),
            ),
          );
          return;
        }
        report[o.outcome]++;
        const key = customerUpsert.key.ofRow(o.row);
        earlier.rows.add(o.row.id);
        if (key !== null) earlier.keys.add(key);
        for (const name of [o.row.id, key, ...namesOf(lines[i]?.item)]) if (name) lineOf.set(name, line);
      });
    };
    bar.start(total, 0, { lines: 0, failed: 0, left: '?' });
    let pending: Line[] = [];
    let done = 0;
    const progress = () => bar.update(done, { lines: report.lines, failed: report.failed, left: left(done) });
    for await (const record of recordsOf(file, format)) {
      report.lines++;
      done += record.bytes;
      const bad = unreadable(record.item);
      if (bad) fail(record.line, bad);
      else pending.push(record);
      if (pending.length === BATCH) {
        await flush(pending);
        pending = [];
        progress();
      }
    }
    if (pending.length > 0) await flush(pending);
    done = total;
    progress();
    report.failures.sort((a, b) => a.line - b.line);
    return report;
  };

  try {
    if (!options.atomic) return await pass((work) => withTenant(db, companyId, work));
    let outcome: ImportReport | undefined;
    await withTenant(db, companyId, async (tx) => {
      outcome = await pass((work) => work(tx));
      // Thrown, not returned: the transaction must roll back what the lines before the failed one imported.
      if (outcome.failed > 0) throw new RolledBack();
    }).catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
    if (!outcome) throw new Error('customers import: the file was not read');
    if (outcome.failed === 0) return outcome;
    return { ...outcome, created: 0, updated: 0, unchanged: 0, rolled_back: true };
  } finally {
    bar.stop();
  }
}

class RolledBack extends Error {}

export function importText(file: string, report: ImportReport): string {
  const lines = [
    report.rolled_back
      ? `Imported nothing from ${file} (--atomic): ${report.lines} line(s), ${report.failed} failed.`
      : `Imported ${file}: ${report.lines} line(s); ${report.created} created, ${report.updated} updated, ` +
        `${report.unchanged} unchanged, ${report.failed} failed.`,
  ];
  for (const failure of report.failures) {
    const why = failure.errors.map((e) => `${e.field ?? '(line)'}: ${e.detail} (${e.code})`).join('; ');
    lines.push(`  line ${failure.line}: ${why}`);
  }
  return lines.join('\n');
}
