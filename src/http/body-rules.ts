// The rules a request's body and query meet before validation sees them: media type and charset (415), size
// (413), JSON syntax and UTF-8 (422), text PostgreSQL cannot store (422), and no body where the contract takes
// none. Where the body may be left out, an empty one counts as none.
import type { Context } from 'hono';
import type { OperationId } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';
import type { AppEnv } from './app-env.ts';
import type { Message } from './message-catalogue.ts';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';
import { keepBodyText, limitBody, mayHaveBody, type OverLimit, readBody } from './request-body.ts';
import { type Unstorable, unstorable } from './storable-text.ts';
import { takesUpload } from './upload.ts';
import { InvalidInputs, invalidFields } from './validation.ts';

const MAX_JSON_BYTES = 1024 * 1024;
const MAX_UPLOAD_BYTES = 11 * 1024 * 1024;
/** Operations without a key (the widget's visitor API) take small bodies: anyone on the internet may send them. */
const MAX_KEYLESS_JSON_BYTES = 16 * 1024;

/** Every body rule of the operation's request, in order. */
export async function checkRequestBody(c: Context<AppEnv>): Promise<void> {
  refuseNulInQuery(c);
  if (c.get('operation').hasBody) await checkBody(c);
  else if (c.req.method !== 'GET') await refuseBody(c);
}

// PostgreSQL text cannot hold U+0000: a string carrying it is refused here (422), not failed on insert (500).
const nulProblem = (error: { pointer: string | null; parameter: string | null }) =>
  invalidFields([{ ...error, code: 'invalid_format', detail: message('body.nul_character') }]);

function refuseNulInQuery(c: Context<AppEnv>): void {
  for (const [name, value] of new URL(c.req.url).searchParams) {
    if (name.includes('\u0000') || value.includes('\u0000')) throw nulProblem({ pointer: null, parameter: name });
  }
}

/** The JSON Pointer of the first string (or member name) in `value` that cannot be stored, and why. */
function unstorablePointer(value: unknown, at = ''): { pointer: string; why: Unstorable } | null {
  if (typeof value === 'string') {
    const why = unstorable(value);
    return why === null ? null : { pointer: at, why };
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const here = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const why = unstorable(key);
    if (why !== null) return { pointer: here, why };
    const found = unstorablePointer(item, here);
    if (found !== null) return found;
  }
  return null;
}

/** Text without a JSON value: nothing, or only the whitespace JSON allows between values. */
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

/** Whether the contract lets the operation's body be left out (its requestBody is not `required`). */
function bodyIsOptional(id: OperationId): boolean {
  const { request } = routes[id];
  return !('body' in request) || request.body.required !== true;
}

/**
 * Many clients send `Content-Type: application/json` on every POST, with or without a body. Where the body
 * may be left out, an empty one is no body: the request continues as if sent without one (no Content-Type,
 * nothing to read), so the route hands the handler `{}` and an Idempotency-Key hashes it as a bodyless request.
 */
function asSentWithoutBody(c: Context<AppEnv>): void {
  const headers = new Headers(c.req.raw.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  c.req.raw = new Request(c.req.url, { method: c.req.method, headers });
  c.req.bodyCache = {};
}

/**
 * The Content-Type the route's own media-type gate (zod-openapi) accepts for JSON: parameters only as `name=value`,
 * no space before `;`. RFC 9110 allows more (`application/json ; charset=utf-8`, `application/json;`), which this
 * service accepts as JSON too: such a request continues with a plain `application/json` (the body already read).
 */
const GATE_JSON_TYPE = /^application\/json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

function asPlainJson(c: Context<AppEnv>, text: string): void {
  const headers = new Headers(c.req.raw.headers);
  headers.set('content-type', 'application/json');
  c.req.raw = new Request(c.req.url, { method: c.req.method, headers, body: text });
}

/**
 * An operation whose contract has no body (an action such as archive, a DELETE) takes none. Bodies are closed
 * everywhere else, so one sent here is refused, not ignored: a client sending `{"reason": "…"}` to an action
 * would otherwise believe it was kept. Nothing, whitespace or `{}` is no body. Every refusal is a 422, the only
 * input problem these operations document (no 413 or 415).
 */
async function refuseBody(c: Context<AppEnv>): Promise<void> {
  const takesNone = () =>
    invalidFields([{ pointer: '', parameter: null, code: 'invalid_type', detail: message('body.none_expected') }]);
  if (!mayHaveBody(c)) return;
  const text = new TextDecoder().decode(await readBody(c, MAX_JSON_BYTES, takesNone));
  if (JSON_WHITESPACE.test(text)) return asSentWithoutBody(c);
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw takesNone();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw takesNone();
  const fields = Object.keys(parsed);
  if (fields.length === 0) return asSentWithoutBody(c);
  throw new InvalidInputs()
    .add('unknown_field', fields.length, (i) => ({
      pointer: `/${fields[i].replace(/~/g, '~0').replace(/\//g, '~1')}`,
      parameter: null,
      code: 'unknown_field',
      detail: message('field.unknown_field'),
    }))
    .problem();
}

/**
 * A body over the limit ends the connection (`Connection: close`): the rest of it may still be on its way, and the
 * connection can carry no next request before it has been read. Closing with it unread could reset the connection
 * before the client reads the 413, so it is discarded first, within bounds (lingering-close.ts).
 */
const tooLarge =
  (max: number): OverLimit =>
  (discardRest) =>
    new ApiProblem('payload_too_large', message('body.too_large', { max }), {}, { Connection: 'close' }, discardRest());

function invalidJson(detail: Message = message('body.invalid_json')): ApiProblem {
  return new ApiProblem('validation_failed', detail, {
    errors: [{ pointer: '', parameter: null, code: 'invalid_json', detail }],
  });
}

/**
 * JSON is UTF-8 (RFC 8259): a `charset` parameter, if sent, must say so (any case, quoted or not). A parameter
 * without a value (`; charset`) is no parameter and ignored, as a MIME parser does.
 */
function charsetIsUtf8(contentType: string): boolean {
  for (const parameter of contentType.split(';').slice(1)) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const value = parameter.slice(equals + 1).trim();
    return value.replace(/^"(.*)"$/, '$1').toLowerCase() === 'utf-8';
  }
  return true;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text, refused when it is not UTF-8: a lenient decoding (c.req.text()) turns each bad byte into
 * U+FFFD, which would be stored as if sent. A byte order mark is dropped, as before. The text is kept: validation
 * parses it and an Idempotency-Key hashes it.
 */
function utf8Text(c: Context<AppEnv>, bytes: Uint8Array): string {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw invalidJson(message('body.invalid_utf8'));
  }
  keepBodyText(c, text);
  return text;
}

/** The media types the contract lists for the operation's body. */
function bodyTypes(id: OperationId): string[] {
  const { request } = routes[id];
  return 'body' in request ? Object.keys(request.body.content) : [];
}

/**
 * A body its handler reads as bytes (a webhook whose signature covers the exact bytes, a raw email): only its media
 * type and size are checked here; parsing and validation are the handler's, after it has authenticated the body.
 */
async function checkRawBody(c: Context<AppEnv>, max: number): Promise<void> {
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const types = bodyTypes(c.get('operationId'));
  if (!types.includes(type)) {
    throw new ApiProblem('unsupported_media_type', message('body.send_media_type', { types: types.join(', ') }));
  }
  await readBody(c, max, tooLarge(max));
}

/** Media type and charset, size, UTF-8 and JSON syntax, before validation sees the body. */
async function checkBody(c: Context<AppEnv>): Promise<void> {
  const rawMax = c.get('operation').rawBodyMaxBytes;
  if (rawMax !== null) return checkRawBody(c, rawMax);
  const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  // Only where the contract takes a file: elsewhere a form is refused like any other media type (it used to reach
  // the route's own media-type gate, whose exception was no problem of ours: 500).
  const upload = type === 'multipart/form-data' && takesUpload(c.get('operationId'));
  // An upload's route has no media-type gate of its own (its body is streamed by the handler: app.ts).
  if (!upload && takesUpload(c.get('operationId'))) {
    throw new ApiProblem('unsupported_media_type', message('upload.send_multipart'));
  }
  const declared = Number(c.req.header('content-length') ?? 0);
  const max = upload ? MAX_UPLOAD_BYTES : c.get('operation').authenticated ? MAX_JSON_BYTES : MAX_KEYLESS_JSON_BYTES;
  // An upload is only limited here: its handler streams it (upload.ts).
  if (upload) return limitBody(c, max, tooLarge(max));
  const bytes = await readBody(c, max, tooLarge(max));
  if (type !== 'application/json') {
    const hasBody = declared > 0 || c.req.header('transfer-encoding') !== undefined;
    // Actions whose body is optional may be sent without one; where the contract requires a body, none at all is
    // refused like any body that is not JSON (it used to reach the route as `{}`: a PATCH of nothing, 200).
    if (!hasBody && type === '' && bodyIsOptional(c.get('operationId'))) return;
    throw new ApiProblem('unsupported_media_type', message('body.send_json'));
  }
  if (!charsetIsUtf8(c.req.header('content-type') ?? '')) {
    throw new ApiProblem('unsupported_media_type', message('body.send_utf8'));
  }
  const text = utf8Text(c, bytes);
  if (JSON_WHITESPACE.test(text) && bodyIsOptional(c.get('operationId'))) return asSentWithoutBody(c);
  if (!GATE_JSON_TYPE.test(c.req.header('content-type') ?? '')) asPlainJson(c, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  // Quick test first: JSON can only carry U+0000 or an unpaired surrogate as an escape.
  if (/\\u(0000|[dD][89a-fA-F])/.test(text)) {
    const found = unstorablePointer(parsed);
    if (found?.why === 'nul') throw nulProblem({ pointer: found.pointer, parameter: null });
    if (found?.why === 'surrogate') {
      const detail = message('body.lone_surrogate');
      throw invalidFields([{ pointer: found.pointer, parameter: null, code: 'invalid_format', detail }]);
    }
  }
}
