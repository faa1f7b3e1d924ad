// File uploads (`multipart/form-data`), streamed: busboy parses the body as it arrives, the file's bytes are kept
// as the chunks they came in (the file itself, nothing more: no copy of the body, no joined buffer), and a file
// past the limit stops the reading at once (413, the rest discarded by the lingering close). The file's type is
// decided from its bytes. The generated route's form validator is not used for these operations (app.ts): it
// would read the whole body into memory first, and a form's `true` is text, not the boolean its schema wants.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { OperationId } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';
import { storedFileName } from '../files/file-name.ts';
import { type DetectedType, detectFileType } from '../files/file-types.ts';
import type { AppEnv } from './app-env.ts';
import { keepBodyReader } from './lingering-close.ts';
import { message } from './messages.ts';
import { ApiProblem, type FieldError } from './problems.ts';
import { unstorable } from './storable-text.ts';
import { invalidFields } from './validation.ts';

/** 10 MB (10 485 760 bytes), the contract's limit for every uploaded file. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Whether the operation takes a file upload (multipart/form-data) instead of JSON. */
export function takesUpload(id: OperationId): boolean {
  const { request } = routes[id];
  return 'body' in request && 'multipart/form-data' in request.body.content;
}

type FieldSpec = { kind: 'text'; maxLength: number } | { kind: 'boolean' };

export type UploadSpec = {
  /** Media types accepted, as decided from the bytes. */
  types: ReadonlySet<string>;
  /** How the accepted types are named in the refusal, e.g. `PDF, JPEG, PNG`. */
  typeNames: string;
  /** The form's other parts; any other part is an unknown field. */
  fields: Record<string, FieldSpec>;
};

export type ReceivedUpload = {
  /** The part's file name. */
  name: string;
  type: DetectedType;
  size: number;
  /** The bytes in order, as received. */
  chunks: Uint8Array[];
  /** The other parts sent: text (`null` for an empty one) or boolean. */
  fields: Record<string, string | boolean | null>;
  /**
   * A digest of what was sent (file name, bytes, fields), for the idempotency check: the body's own bytes differ
   * between two sendings of the same form (each picks its own boundary).
   */
  digest: string;
};

const fieldError = (pointer: string, code: string, detail: FieldError['detail']): FieldError => ({
  pointer,
  parameter: null,
  code,
  detail,
});

export async function receiveUpload(c: Context<AppEnv>, spec: UploadSpec): Promise<ReceivedUpload> {
  const discardRest = keepBodyReader(c);
  const body = c.req.raw.body;
  const errors: FieldError[] = [];
  const fields: ReceivedUpload['fields'] = {};
  let file: { name: string; chunks: Uint8Array[]; size: number } | undefined;
  let tooLarge = false;
  const bytesDigest = createHash('sha256');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      // UTF-8 file names (busboy's default for an unmarked filename is Latin-1).
      defParamCharset: 'utf8',
      // busboy stops a file when it reaches its limit, so the limit is one byte past the largest allowed file.
      limits: { fileSize: MAX_FILE_BYTES + 1, fieldSize: 64 * 1024, fields: 20, parts: 40 },
    });
  } catch (error) {
    throw malformed(error);
  }
  parser.on('file', (name, stream, info) => {
    // A part cut off (the body ends early) fails its stream; the parser reports that as its own error.
    stream.on('error', () => {});
    if (name !== 'file') {
      errors.push(fieldError(`/${name}`, 'unknown_field', message('field.unknown_field')));
      stream.resume();
    } else if (file) {
      errors.push(fieldError('/file', 'invalid_type', message('upload.file_twice')));
      stream.resume();
    } else if (info.filename && unstorable(info.filename)) {
      // A name such as `filename*=UTF-8''a%00.pdf`: refused like any text the database cannot store.
      errors.push(fieldError('/file', 'invalid_format', unstorableDetail(info.filename)));
      stream.resume();
    } else {
      const received = { name: info.filename || 'file', chunks: [] as Uint8Array[], size: 0 };
      file = received;
      stream.on('data', (chunk: Buffer) => {
        received.chunks.push(chunk);
        received.size += chunk.byteLength;
        bytesDigest.update(chunk);
      });
      stream.on('limit', () => {
        tooLarge = true;
      });
    }
  });
  parser.on('field', (name, value, info) => {
    const field = spec.fields[name];
    if (name === 'file') errors.push(fieldError('/file', 'invalid_type', message('upload.file_missing')));
    else if (!field) errors.push(fieldError(`/${name}`, 'unknown_field', message('field.unknown_field')));
    else if (field.kind === 'boolean') {
      if (value === 'true' || value === 'false') fields[name] = value === 'true';
      else errors.push(fieldError(`/${name}`, 'invalid_type', message('upload.boolean')));
    } else if (info.valueTruncated || [...value].length > field.maxLength) {
      errors.push(fieldError(`/${name}`, 'too_long', message('upload.too_long', { max: field.maxLength })));
    } else if (unstorable(value)) {
      errors.push(fieldError(`/${name}`, 'invalid_format', unstorableDetail(value)));
    } else fields[name] = value === '' ? null : value;
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  // Not awaited when the reading stops early (413): its rejection must not go unhandled.
  finished.catch(() => {});

  if (body !== null) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!parser.write(value)) await Promise.race([once(parser, 'drain'), finished]);
        if (tooLarge) break;
      }
      if (!tooLarge) {
        parser.end();
        await finished;
      }
    } catch (error) {
      // The body rules' own refusal (a chunked body past the request limit) passes as it is.
      if (error instanceof ApiProblem) throw error;
      throw malformed(error);
    } finally {
      reader.releaseLock();
    }
  }
  if (tooLarge) {
    // The parser is left as it is (destroying it would fail its open file part): nothing reads it any more.
    throw new ApiProblem(
      'payload_too_large',
      message('upload.file_too_large', { max: MAX_FILE_BYTES }),
      {},
      { Connection: 'close' },
      discardRest(),
    );
  }
  if (errors.length > 0) throw invalidFields(errors);
  if (!file) throw invalidFields([fieldError('/file', 'required', message('upload.file_missing'))]);
  if (file.size === 0) throw invalidFields([fieldError('/file', 'too_small', message('upload.file_empty'))]);
  const type = await detectFileType(file.chunks);
  if (!type || !spec.types.has(type.mime)) {
    const detail = type
      ? message('upload.type_not_allowed', { found: type.mime, allowed: spec.typeNames })
      : message('upload.type_unknown', { allowed: spec.typeNames });
    throw invalidFields([fieldError('/file', 'invalid_format', detail)]);
  }
  const digest = createHash('sha256')
    .update(JSON.stringify([file.name, bytesDigest.digest('hex'), Object.entries(fields).sort()]))
    .digest('hex');
  // Stored under a safe name whose extension is the detected type's (src/files/file-name.ts).
  return { name: storedFileName(file.name, type), type, size: file.size, chunks: file.chunks, fields, digest };
}

const unstorableDetail = (text: string) =>
  message(unstorable(text) === 'nul' ? 'body.nul_character' : 'body.lone_surrogate');

function malformed(error: unknown): ApiProblem {
  const reason = error instanceof Error ? error.message : String(error);
  return invalidFields([fieldError('', 'invalid_format', message('upload.malformed', { reason }))]);
}
