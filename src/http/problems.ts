// RFC 9457 problems: one error type for every failure, rendered with the title in the request's language.
import type { Context } from 'hono';
import { type ProblemCode, problems } from '../../generated/problems.ts';
import type { Language } from './language.ts';

export type FieldError = { pointer: string | null; parameter: string | null; code: string; detail: string };
export type ProblemExtras = { required_scope?: string; deal_id?: string; errors?: FieldError[] };

export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail?: string,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}${detail ? `: ${detail}` : ''}`);
    this.status = problems[code].status;
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
  return {
    type: `${opts.errorsUrl}/${problem.code}`,
    title: problemTitle(problem.code, opts.language),
    status: problem.status,
    code: problem.code,
    ...(problem.detail ? { detail: problem.detail } : {}),
    instance: opts.instance,
    request_id: opts.requestId,
    ...problem.extras,
  };
}

/** Writes the problem as `application/problem+json` with its localized title. */
export function problemResponse(c: Context, problem: ApiProblem): Response {
  const language = (c.get('language') as Language | undefined) ?? 'en';
  if ('storedBody' in problem && 'storedStatus' in problem) {
    const headers = new Headers(problem.headers);
    headers.set('Content-Type', 'application/problem+json');
    return new Response(JSON.stringify(problem.storedBody), { status: Number(problem.storedStatus), headers });
  }
  const body = problemBody(problem, {
    errorsUrl: c.get('errorsUrl') ?? '/errors',
    language,
    requestId: c.get('requestId') ?? 'req_unknown',
    instance: new URL(c.req.url).pathname,
  });
  const headers = new Headers(problem.headers);
  headers.set('Content-Type', 'application/problem+json');
  headers.set('Content-Language', language);
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}
