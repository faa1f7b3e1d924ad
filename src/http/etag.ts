// ETag / If-Match on the version column of updatable records.
import type { Context } from 'hono';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

export const etagOf = (version: number) => `"${version}"`;

/** What If-Match allows: undefined (absent or `*`: any version), else the versions it names. */
export type ExpectedVersions = ReadonlySet<number> | undefined;

/** An entity-tag (RFC 9110 §8.8.3), weak or strong; ours are strong decimal versions. */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/**
 * The versions If-Match asks for. As RFC 9110 §13.1.1 says, it is `*` or a list of entity-tags, compared
 * strongly: a weak tag (W/"3"), or a tag this API never gives, matches no version, so the answer is 412
 * precondition_failed with the current ETag. A header that is not such a list is refused as malformed (412).
 */
export function expectedVersion(c: Context): ExpectedVersions {
  const header = c.req.header('if-match')?.trim();
  if (!header || header === '*') return undefined;
  const versions = new Set<number>();
  for (const member of header.split(',').map((part) => part.trim())) {
    const tag = member.match(ENTITY_TAG);
    if (!tag) throw new ApiProblem('precondition_failed', message('etag.malformed'));
    if (!tag[1] && /^\d{1,9}$/.test(tag[2] ?? '')) versions.add(Number(tag[2]));
  }
  return versions;
}

/** Whether the record's current version satisfies If-Match. */
export function allowsVersion(expected: ExpectedVersions, version: number): boolean {
  return expected === undefined || expected.has(version);
}

export function preconditionFailed(current: number): ApiProblem {
  return new ApiProblem('precondition_failed', message('etag.changed', { etag: etagOf(current) }));
}
