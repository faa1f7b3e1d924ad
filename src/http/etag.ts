// ETag / If-Match on the version column of updatable records.
import type { Context } from 'hono';
import { ApiProblem } from './problems.ts';

export const etagOf = (version: number) => `"${version}"`;

/** The version If-Match asks for: undefined when absent or `*`. A weak or malformed tag never matches. */
export function expectedVersion(c: Context): number | undefined {
  const header = c.req.header('if-match')?.trim();
  if (!header || header === '*') return undefined;
  const match = header.match(/^"(\d{1,9})"$/);
  if (!match)
    throw new ApiProblem('precondition_failed', 'If-Match must be an ETag received from this API, such as "3".');
  return Number(match[1]);
}

export function preconditionFailed(current: number): ApiProblem {
  return new ApiProblem('precondition_failed', `The record has changed; its current ETag is ${etagOf(current)}.`);
}
