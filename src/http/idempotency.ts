// Idempotent creation. With an Idempotency-Key, the creation and its stored response commit in one
// transaction: a crash leaves both or neither. A concurrent repeat finds the key's advisory lock taken
// (409 idempotency_in_progress); a later repeat replays the stored response; the same key with another
// request is refused (422 idempotency_key_reused). Business errors (ApiProblem) are stored and replayed
// too, in the replaying request's language; unexpected failures are not, nor problems that pass (a limit: 429,
// an unreachable service: 5xx), so the request can be retried after Retry-After.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { idempotencyKeys } from '../db/schema/index.ts';
import { builder, prepared, type Slots } from '../db/statements.ts';
import { sendUntilCommit, type Tx, tableRows } from '../db/tenant.ts';
import { type EventRecord, eventAlongside, recordEvent } from '../events/record.ts';
import type { AppEnv } from './app-env.ts';
import { LANGUAGES, type Language } from './language.ts';
import { message } from './messages.ts';
import { ApiProblem, problemBody, type StoredAnswer } from './problems.ts';

/** How long a key and its stored response are kept (the contract's Idempotency section). */
export const IDEMPOTENCY_HOURS = 24;

/**
 * What a creation answers. `event`, when given, is the creation's event, recorded here after the work (with the
 * stored answer, in one statement: one round trip less than the work recording it and the answer written after).
 */
export type Outcome<B, S extends 200 | 201 | 202> = {
  status: S;
  body: B;
  headers?: Record<string, string>;
  event?: EventRecord;
};
type Stored = { status: number; body: unknown; headers: Record<string, string> };

// The key's statements, built once (src/db/statements.ts).

/**
 * The key's lock, with the removal of its expired answer under that lock (kept 24 hours: an older key is free
 * again, whether or not the hourly purge has run yet).
 */
const KEY_LOCK = prepared<{ lockName: string; companyId: string; key: string }>(
  (p) => sql`
    with lock as (select pg_try_advisory_xact_lock(hashtextextended(${p.lockName}, 7)) as locked),
         expired as (
           delete from ${idempotencyKeys}
           where ${idempotencyKeys.companyId} = ${p.companyId} and ${idempotencyKeys.key} = ${p.key}
             and ${idempotencyKeys.createdAt} < now() - make_interval(hours => ${sql.raw(String(IDEMPOTENCY_HOURS))})
             and (select locked from lock))
    select locked from lock`,
);

/** The key's stored answer. */
const KEY_ANSWER = prepared<{ companyId: string; key: string }>((p) =>
  builder
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.companyId, p.companyId), eq(idempotencyKeys.key, p.key))),
);

type AnswerValues = Omit<typeof idempotencyKeys.$inferInsert, 'createdAt'>;

const storeAnswer = (p: Slots<AnswerValues>) =>
  builder.insert(idempotencyKeys).values({
    companyId: p.companyId,
    key: p.key,
    requestHash: p.requestHash,
    responseStatus: p.responseStatus,
    responseBody: p.responseBody,
    responseHeaders: p.responseHeaders,
  });

/** The stored answer of a creation without an event. */
const ANSWER = prepared<AnswerValues>(storeAnswer);

/** The stored answer as a CTE of the creation's event (drizzle puts an embedded query in parentheses). */
const EVENT_AND_ANSWER = eventAlongside<AnswerValues>((p) => sql`stored_answer as ${storeAnswer(p)}`);

/**
 * Runs a creating operation and returns what to send: the fresh outcome, or the stored one of an earlier
 * request with the same key (a stored problem is thrown as a ReplayedProblem).
 */
export async function runCreation<B, S extends 200 | 201 | 202>(
  c: Context<AppEnv>,
  work: (tx: Tx) => Promise<Outcome<B, S>>,
  /**
   * What identifies the request's body when it is not its text: an upload's digest (src/http/upload.ts), asked
   * for only when needed, after the work (which receives the upload) or in its place (a repeat).
   */
  bodyDigest?: () => Promise<string>,
): Promise<Required<Omit<Outcome<B, S>, 'event'>>> {
  const tenant = c.get('tenant');
  const { companyId } = tenant;
  const key = c.req.header('idempotency-key');
  if (key === undefined) {
    const { event, ...outcome } = await tenant.transaction(async (tx) => {
      const done = await work(tx);
      if (done.event) await recordEvent(tx, companyId, done.event);
      return done;
    });
    return { headers: {}, ...outcome };
  }
  // The request includes what its API key may do: a stored answer (a webhook secret, say) is replayed only to a
  // key with the same scopes (a renewed key keeps them), never to one that could not have made the request.
  const requestHash = async () =>
    createHash('sha256')
      .update(`${c.req.method} ${new URL(c.req.url).pathname}\n`)
      .update(`${[...c.get('auth').scopes].sort().join(' ')}\n`)
      .update(bodyDigest ? await bodyDigest() : await c.req.text())
      .digest('hex');

  const stored = await tenant.transaction(async (tx): Promise<Stored & { replayed: boolean }> => {
    // Three statements sent together (one round trip): the key's lock, with the removal of its expired answer
    // under that lock (kept 24 hours: an older key is free again, whether or not the hourly purge has run yet),
    // then the stored answer, read after the lock was taken (its own snapshot: a repeat that held the lock
    // until its commit is seen), then the work's savepoint (see attempt), left again when the key is not free.
    // Each is handed to the connection at once (`then`).
    const locking = KEY_LOCK.run(tx, { lockName: `${companyId}:${key}`, companyId, key }).then(
      (rows) => rows[0]?.locked === true,
    );
    const finding = KEY_ANSWER.run(tx, { companyId, key }).then((rows) => tableRows(idempotencyKeys, rows)[0]);
    const keyState = Promise.all([locking, finding]);
    // Handled now (awaited below): a failure before the savepoint's work runs must not count as unhandled.
    keyState.catch(() => {});
    const result = await attempt(c, tx, async (savepoint) => {
      const [locked, previous] = await keyState;
      if (!locked) throw new KeyNotFree(undefined);
      if (previous) throw new KeyNotFree(previous);
      return work(savepoint);
    }).catch(async (error) => {
      // The key's statements failed first when the savepoint did: theirs is the error to throw.
      await keyState;
      if (error instanceof KeyNotFree) return error;
      throw error;
    });
    if (result instanceof KeyNotFree) {
      const { previous } = result;
      if (!previous) throw new ApiProblem('idempotency_in_progress', message('idempotency.in_progress'));
      if (previous.requestHash !== (await requestHash())) {
        throw new ApiProblem('idempotency_key_reused', message('idempotency.key_reused'));
      }
      return {
        status: previous.responseStatus,
        // Parsed from the text stored below, the body has its keys in the order they were sent in, so it is sent
        // again byte for byte (JSON.stringify of JSON.parse of JSON.stringify's text is that text).
        body: JSON.parse(previous.responseBody),
        headers: previous.responseHeaders as Record<string, string>,
        replayed: true,
      };
    }
    const { event, ...answer } = result;
    const storedAnswer: AnswerValues = {
      companyId,
      key,
      requestHash: await requestHash(),
      responseStatus: answer.status,
      responseBody: JSON.stringify(answer.body),
      responseHeaders: answer.headers,
    };
    if (event) await recordEvent(tx, companyId, event, { statement: EVENT_AND_ANSWER, values: storedAnswer });
    else await sendUntilCommit(tx, ANSWER.run(tx, storedAnswer));
    return { ...answer, replayed: false };
  });

  const headers = { ...stored.headers };
  delete headers['Content-Type'];
  if (stored.replayed) headers['Idempotent-Replayed'] = 'true';
  if (stored.status >= 400) throw new ReplayedProblem(stored.status, stored.body, headers);
  // The stored body is the body this operation produced for the same request.
  return { status: stored.status as S, body: stored.body as B, headers };
}

/**
 * A problem stored with an idempotency key (the first answer is sent from the store too), sent again as it
 * was but in the language of the request that repeats it. It is stored rendered in every language: texts
 * rather than message ids, so a replay does not depend on the catalogue of the release that stored it.
 */
export class ReplayedProblem extends ApiProblem {
  constructor(
    readonly storedStatus: number,
    readonly storedBody: unknown,
    headers: Record<string, string>,
  ) {
    super('conflict', undefined, {}, headers);
  }

  override stored(language: Language): StoredAnswer {
    const bodies = this.storedBody as Partial<Record<Language, unknown>>;
    // Stored by a release that kept one rendered body (a problem has a `type`; such keys expire within 24 h):
    // sent as it was, its Content-Language among the stored headers.
    if ('type' in bodies) return { status: this.storedStatus, body: bodies };
    return { status: this.storedStatus, body: bodies[language], language };
  }
}

/** A problem that passes (429 past a limit, 503 with a service unreachable): never the key's lasting answer. */
const passes = (problem: ApiProblem) => problem.status === 429 || problem.status >= 500;

/**
 * Thrown in the work's savepoint, before the work, when the key is not free: the savepoint is left. `previous` is
 * the key's stored answer, or undefined when another request holds the key's lock.
 */
class KeyNotFree extends Error {
  constructor(readonly previous: typeof idempotencyKeys.$inferSelect | undefined) {
    super('idempotency key not free');
  }
}

/** The work in a savepoint: a business error rolls back the work but is kept as the key's response. */
async function attempt<B, S extends 200 | 201 | 202>(
  c: Context<AppEnv>,
  tx: Tx,
  work: (tx: Tx) => Promise<Outcome<B, S>>,
): Promise<Stored & { event?: EventRecord }> {
  try {
    const outcome = await tx.transaction((savepoint) => work(savepoint));
    return {
      status: outcome.status,
      body: outcome.body,
      headers: { 'Content-Type': 'application/json', ...outcome.headers },
      event: outcome.event,
    };
  } catch (error) {
    if (!(error instanceof ApiProblem) || passes(error)) throw error;
    const context = {
      errorsUrl: c.get('errorsUrl'),
      requestId: c.get('requestId'),
      instance: new URL(c.req.url).pathname,
    };
    const body = Object.fromEntries(
      LANGUAGES.map((language) => [language, problemBody(error, { ...context, language })]),
    );
    return { status: error.status, body, headers: { 'Content-Type': 'application/problem+json', ...error.headers } };
  }
}
