// Which failures count as the database being unavailable (503) or busy (503, "nothing was changed"), with the
// errors' real shapes: postgres.js's own for a refused connection and a host that does not resolve, PostgreSQL's
// SQLSTATEs, drizzle's wrapper (the driver's error as its cause), and Node's error for a client that went away.
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isDatabaseBusy, isDatabaseUnavailable } from '../../src/db/errors.ts';
import { isTransientConflict } from '../../src/db/transient.ts';
import { freePort } from '../harness/processes.ts';

async function errorOf(url: string): Promise<unknown> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    throw new Error('connected');
  } catch (error) {
    return error;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const pgError = (code: string) => Object.assign(new Error(`sqlstate ${code}`), { code });
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('database unavailable', () => {
  it('a refused connection and a host that does not resolve, as postgres.js reports them', async () => {
    const refused = await errorOf(`postgres://postgres@127.0.0.1:${await freePort()}/x`);
    expect(refused).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(refused))).toBe(true);
    const unresolved = await errorOf('postgres://postgres@no-such-host.invalid:5432/x');
    expect(isDatabaseUnavailable(unresolved)).toBe(true);
  });

  it.each([
    '57P01',
    '57P03',
    '53300',
    '08006',
    '25006',
    '57014',
    '40P01',
    '40001',
    'CONNECTION_CLOSED',
  ])('%s is unavailable', (code) => {
    expect(isDatabaseUnavailable(wrapped(pgError(code)))).toBe(true);
  });

  it.each(['23505', '42P01', '22P02'])('%s (a fault of the request or the service) is not', (code) => {
    expect(isDatabaseUnavailable(wrapped(pgError(code)))).toBe(false);
  });

  it('a client that went away while sending (Node: ECONNRESET "aborted", no syscall) is not', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))).toBe(false);
  });
});

describe('database busy (it answered, and gave up: nothing was changed)', () => {
  it.each(['57014', '40P01', '40001'])('%s', (code) => {
    expect(isDatabaseBusy(wrapped(pgError(code)))).toBe(true);
  });
  it.each(['57P01', 'CONNECTION_CLOSED', 'ECONNREFUSED'])('not %s (out of reach: the outcome is unknown)', (code) => {
    expect(isDatabaseBusy(wrapped(pgError(code)))).toBe(false);
  });
});

it('only a deadlock or a serialization failure runs the transaction again', () => {
  expect([pgError('40P01'), pgError('40001')].map((e) => isTransientConflict(wrapped(e)))).toEqual([true, true]);
  expect([pgError('57014'), pgError('57P01')].map((e) => isTransientConflict(wrapped(e)))).toEqual([false, false]);
});
