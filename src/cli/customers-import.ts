// `customers import FILE.csv|FILE.jsonl --company ID`: the file's lines through the batch upsert of
// POST /customers/batch (readBatch and runBatch: the same checks, matching, events and fan-out jobs), 100 lines
// per transaction, each line on its own (a bad line fails alone). A progress bar on stderr while it runs; the
// report lists every failed line with its field errors.
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { SingleBar } from 'cli-progress';
import { parse } from 'csv-parse';
import type { Db } from '../db/client.ts';
import { withTenant } from '../db/tenant.ts';
import { readBatch, runBatch } from '../http/batch.ts';
import { localize } from '../http/messages.ts';
import type { ApiProblem } from '../http/problems.ts';
import { customerUpsert } from '../resources/customers/batch.ts';

/** As many lines as the API takes in one batch. */
const BATCH = 100;

type Line = { line: number; item: unknown; bytes: number };
export type FailedLine = { line: number; errors: { field: string | null; code: string; detail: string }[] };
export type ImportReport = {
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  failures: FailedLine[];
};

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
  const parser = createReadStream(file).pipe(
    parse({ columns: true, bom: true, skip_empty_lines: true, info: true, relax_column_count: false }),
  );
  let bytes = 0;
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number; bytes: number };
  }>) {
    const item = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ''));
    yield { line: info.lines, item, bytes: info.bytes - bytes };
    bytes = info.bytes;
  }
}

const NUL = '\u0000';

/** A line the batch cannot take at all (not JSON, text PostgreSQL cannot store): failed before it is sent. */
function unreadable(item: unknown): FailedLine['errors'] | null {
  if (item instanceof SyntaxError)
    return [{ field: null, code: 'invalid_json', detail: 'The line is not valid JSON.' }];
  if (JSON.stringify(item).includes('\\u0000') || JSON.stringify(item).includes(NUL)) {
    return [{ field: null, code: 'invalid_format', detail: 'The line contains the character U+0000 (NUL).' }];
  }
  return null;
}

/** The field errors of a failed item, pointers made relative to the line (`/items/7/email` → `email`). */
function errorsOf(problem: ApiProblem): FailedLine['errors'] {
  const errors = problem.extras.errors ?? [];
  if (errors.length === 0)
    return [
      { field: null, code: problem.code, detail: problem.detail ? localize(problem.detail, 'en') : problem.code },
    ];
  return errors.map((error) => ({
    field: error.pointer === null ? null : error.pointer.replace(/^\/items\/\d+\/?/, '') || null,
    code: error.code,
    detail: localize(error.detail, 'en'),
  }));
}

export async function importCustomers(
  db: Db,
  companyId: string,
  file: string,
  format: 'csv' | 'jsonl',
): Promise<ImportReport> {
  const report: ImportReport = { lines: 0, created: 0, updated: 0, unchanged: 0, failed: 0, failures: [] };
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'customers import [{bar}] {percentage}% | {lines} lines | {failed} failed | {eta_formatted} left',
    hideCursor: true,
    // Into a log too (not a terminal): a line every few seconds, so a long import still shows it is moving.
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  bar.start(statSync(file).size || 1, 0, { lines: 0, failed: 0 });
  const fail = (line: number, errors: FailedLine['errors']) => {
    report.failed++;
    report.failures.push({ line, errors });
  };
  const flush = async (lines: Line[]) => {
    const outcomes = await withTenant(db, companyId, (tx) =>
      runBatch(
        tx,
        companyId,
        customerUpsert,
        readBatch(customerUpsert.schemas, { items: lines.map((l) => l.item) }),
        false,
      ),
    );
    outcomes.forEach((o, i) => {
      const line = lines[i]?.line ?? 0;
      if (o.outcome === 'failed') fail(line, errorsOf(o.problem));
      else report[o.outcome]++;
    });
  };
  try {
    let pending: Line[] = [];
    let done = 0;
    for await (const record of recordsOf(file, format)) {
      report.lines++;
      done += record.bytes;
      const bad = unreadable(record.item);
      if (bad) fail(record.line, bad);
      else pending.push(record);
      if (pending.length === BATCH) {
        await flush(pending);
        pending = [];
      }
      bar.update(done, { lines: report.lines, failed: report.failed });
    }
    if (pending.length > 0) await flush(pending);
    bar.update(bar.getTotal(), { lines: report.lines, failed: report.failed });
  } finally {
    bar.stop();
  }
  report.failures.sort((a, b) => a.line - b.line);
  return report;
}

export function importText(file: string, report: ImportReport): string {
  const lines = [
    `Imported ${file}: ${report.lines} line(s); ${report.created} created, ${report.updated} updated, ` +
      `${report.unchanged} unchanged, ${report.failed} failed.`,
  ];
  for (const failure of report.failures) {
    const why = failure.errors.map((e) => `${e.field ?? '(line)'}: ${e.detail} (${e.code})`).join('; ');
    lines.push(`  line ${failure.line}: ${why}`);
  }
  return lines.join('\n');
}
