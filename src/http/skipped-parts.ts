// zod-openapi validates a request one part at a time — query, path, headers, then the JSON body — and stops at
// the first part that fails, while the contract promises every invalid input in one problem. When a part fails,
// the parts after it are checked here as well, with the same generated schemas and the same inputs zod-openapi
// would hand them (hono's validator: repeated query parameters as lists, headers lower-cased).
import type { Context } from 'hono';
import type { z } from 'zod';
import { routes } from '../../generated/routes.ts';
import type { AppEnv } from './app-env.ts';
import type { InvalidInputs } from './validation.ts';

const ORDER = ['query', 'param', 'header', 'json'] as const;
type Part = (typeof ORDER)[number];

type Request = {
  query?: z.ZodType;
  params?: z.ZodType;
  headers?: z.ZodType;
  body?: { content: Record<string, { schema: unknown } | undefined> };
};

function schemaOf(request: Request, part: Part): z.ZodType | undefined {
  if (part === 'query') return request.query;
  if (part === 'param') return request.params;
  if (part === 'header') return request.headers;
  return request.body?.content['application/json']?.schema as z.ZodType | undefined;
}

async function inputOf(c: Context<AppEnv>, part: Part): Promise<unknown> {
  if (part === 'query') {
    return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
  }
  if (part === 'param') return c.req.param();
  if (part === 'header') return c.req.header();
  // No JSON body (an optional one left out): the route hands the handler `{}`, nothing to check. A raw body (a
  // webhook, a raw email) is its handler's to parse, after it has authenticated it: not read here, where a body
  // that is not JSON (`T=`) would fail the parse behind a header's refusal.
  if (!/^application\/json/i.test(c.req.header('content-type') ?? '')) return undefined;
  if (c.get('operation').rawBodyMaxBytes !== null) return undefined;
  try {
    return await c.req.json();
  } catch {
    // The body rules refused malformed JSON before; should one pass, the part's own refusal stands alone.
    return undefined;
  }
}

/** Adds the invalid inputs of the parts zod-openapi has not checked yet, after `failed`, to `found`. */
export async function addLaterPartErrors(c: Context<AppEnv>, failed: string, found: InvalidInputs): Promise<void> {
  const operationId = c.get('operationId');
  const index = ORDER.indexOf(failed as Part);
  if (operationId === undefined || index < 0) return;
  const request = routes[operationId].request as Request;
  for (const part of ORDER.slice(index + 1)) {
    const schema = schemaOf(request, part);
    if (!schema) continue;
    const input = await inputOf(c, part);
    if (input === undefined) continue;
    const result = await schema.safeParseAsync(input);
    if (!result.success) found.addIssues(result.error, part, input);
  }
}
