// RFC 9457 problems: one error type for every failure, rendered with the title and details in the request's
// language.
import type { Context } from 'hono';
import { type ProblemCode, problems } from '../../generated/problems.ts';
import type { Language } from './language.ts';
import { answerWhileLingering } from './lingering-close.ts';
import { localize, type Message } from './message-catalogue.ts';

/** One invalid input; `rule` names the identifier rule a value breaks (src/domain/identifiers.ts), when it is one. */
export type FieldError = {
  pointer: string | null;
  parameter: string | null;
  code: string;
  detail: Message;
  rule?: string;
};
/** A field an e-invoice needs and the data lacks, with the EN 16931 or Peppol rule it breaks. */
export type MissingField = { field: string; rule: string; detail: Message };
export type ProblemExtras = {
  required_scope?: string;
  deal_id?: string;
  errors?: FieldError[];
  missing?: MissingField[];
  /** Stored values an e-invoice cannot carry: they break the rule named (entered before the checks existed). */
  invalid?: MissingField[];
};

/** A body rendered before (a problem stored with an idempotency key), with its status and language. */
export type StoredAnswer = { status: number; body: unknown; language?: Language };

export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail?: Message,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
    /** What the answer's end (and so the connection's close) waits for: see lingering-close.ts. */
    readonly lingering?: Promise<void>,
  ) {
    super(`${code}${detail ? `: ${localize(detail, 'en')}` : ''}`);
    this.status = problems[code].status;
  }

  /** The stored answer to send instead of rendering this problem (see ReplayedProblem in idempotency.ts). */
  stored(_language: Language): StoredAnswer | undefined {
    return undefined;
  }
}

export function problemTitle(code: ProblemCode, language: Language): string {
  const titles: Partial<Record<Language, string>> = problems[code].titles;
  return titles[language] ?? problems[code].titles.en;
}

export function problemBody(
  problem: ApiProblem,
  opts: { errorsUrl: string; language: Language; requestId: string; instance: string },
) {
  const { errors, missing, invalid, ...extras } = problem.extras;
  return {
    type: `${opts.errorsUrl}/${problem.code}`,
    title: problemTitle(problem.code, opts.language),
    status: problem.status,
    code: problem.code,
    ...(problem.detail ? { detail: localize(problem.detail, opts.language) } : {}),
    instance: opts.instance,
    request_id: opts.requestId,
    ...extras,
    ...(errors ? { errors: errors.map((error) => ({ ...error, detail: localize(error.detail, opts.language) })) } : {}),
    ...(missing ? { missing: missing.map((m) => ({ ...m, detail: localize(m.detail, opts.language) })) } : {}),
    ...(invalid ? { invalid: invalid.map((m) => ({ ...m, detail: localize(m.detail, opts.language) })) } : {}),
  };
}

/** Writes the problem as `application/problem+json` with its title and details in the request's language. */
export function problemResponse(c: Context, problem: ApiProblem): Response {
  const language = (c.get('language') as Language | undefined) ?? 'en';
  const headers = new Headers(problem.headers);
  headers.set('Content-Type', 'application/problem+json');
  // RFC 9110: a 401 names the authentication scheme the request needs.
  if (problem.status === 401) headers.set('WWW-Authenticate', 'Bearer');
  const stored = problem.stored(language);
  if (stored) {
    if (stored.language) headers.set('Content-Language', stored.language);
    return new Response(JSON.stringify(stored.body), { status: stored.status, headers });
  }
  const body = problemBody(problem, {
    errorsUrl: c.get('errorsUrl') ?? '/errors',
    language,
    requestId: c.get('requestId') ?? 'req_unknown',
    instance: new URL(c.req.url).pathname,
  });
  headers.set('Content-Language', language);
  return answer(JSON.stringify(body), { status: problem.status, headers }, problem.lingering);
}

const answer = (text: string, init: ResponseInit, lingering: Promise<void> | undefined) =>
  lingering ? answerWhileLingering(text, init, lingering) : new Response(text, init);
