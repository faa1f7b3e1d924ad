// ETag / If-Match on the version column of updatable records.
import type { Context } from 'hono';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

export const etagOf = (version: number) => `"${version}"`;

/** The version If-Match asks for: undefined when absent or `*`. A weak or malformed tag never matches. */
export function expectedVersion(c: Context): number | undefined {
  const header = c.req.header('if-match')?.trim();
  if (!header || header === '*') return undefined;
  const match = header.match(/^"(\d{1,9})"$/);
  if (!match) throw new ApiProblem('precondition_failed', message('etag.malformed'));
  return Number(match[1]);
}

export function preconditionFailed(current: number): ApiProblem {
  return new ApiProblem('precondition_failed', message('etag.changed', { etag: etagOf(current) }));
}
