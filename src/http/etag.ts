// ETag / If-Match on the version column of updatable records, and a change on a record locked behind it.
import type { Context } from 'hono';
import type { Tx } from '../db/tenant.ts';
import type { AppEnv } from './app-env.ts';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

export const etagOf = (version: number) => `"${version}"`;

/** What If-Match allows: undefined (absent or `*`: any version), else the versions it names. */
export type ExpectedVersions = ReadonlySet<number> | undefined;

/**
 * One member of an If-Match list and the comma after it (RFC 9110 §8.8.3, §5.6.1): an entity-tag, weak or strong
 * (its opaque part may hold commas), or nothing (empty members are ignored, as §5.6.1.2 asks).
 */
const MEMBER = /^[ \t]*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(?:,|$)/;
/** Our entity-tags: a version as we write it (no leading zeros: strong comparison is character by character). */
const VERSION = /^(?:0|[1-9]\d{0,8})$/;

/**
 * The versions If-Match asks for. As RFC 9110 §13.1.1 says, it is `*` or a list of entity-tags, compared
 * strongly: a weak tag (W/"3"), or a tag this API never gives, matches no version, so the answer is 412
 * precondition_failed with the current ETag. A header that is not such a list is refused as malformed (412).
 */
export function expectedVersion(c: Context): ExpectedVersions {
  const header = c.req.header('if-match')?.trim();
  if (!header || header === '*') return undefined;
  const versions = new Set<number>();
  for (let rest = header; rest.length > 0; ) {
    const member = rest.match(MEMBER);
    if (!member || member[0].length === 0) throw new ApiProblem('precondition_failed', message('etag.malformed'));
    const [, weak, tag] = member;
    if (!weak && tag !== undefined && VERSION.test(tag)) versions.add(Number(tag));
    rest = rest.slice(member[0].length);
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

/**
 * The check of a record read for a change (locked): `notFound` without it, 412 with its ETag when If-Match names
 * another version. After it, `record` is known to be there.
 */
export function checkIfMatch<R extends { version: number }>(
  record: R | undefined,
  expected: ExpectedVersions,
  notFound: () => ApiProblem,
): asserts record is R {
  if (!record) throw notFound();
  if (!allowsVersion(expected, record.version)) throw preconditionFailed(record.version);
}

/** What a change needs of a record: how to read it locked, and its 404. */
export type Lockable<R> = {
  lock: (tx: Tx, companyId: string, id: string) => Promise<R | undefined>;
  notFound: () => ApiProblem;
};

/** Runs `work` on the record locked in a tenant transaction, after the If-Match check (checkIfMatch). */
export function onLocked<R extends { version: number }, T>(
  c: Context<AppEnv>,
  record: Lockable<R>,
  id: string,
  work: (tx: Tx, current: R, companyId: string) => Promise<T>,
): Promise<T> {
  const expected = expectedVersion(c);
  const { companyId } = c.get('tenant');
  return c.get('tenant').transaction(async (tx) => {
    const current = await record.lock(tx, companyId, id);
    checkIfMatch(current, expected, record.notFound);
    return work(tx, current, companyId);
  });
}
