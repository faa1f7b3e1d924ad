// File uploads (`multipart/form-data`), received whole before any database work: busboy parses the body as it
// arrives, and the file part flows into a spool file in os.tmpdir() through a size counter and the type sniffer.
// Only the first chunks are held, until file-type has named the type from the bytes; a refused type stops the writing
// there. A file past the limit stops the reading at once (413, the rest discarded by the lingering close). Only once
// the whole form was received and accepted does one short transaction store the file (from the spool) and record it:
// a client that sends slowly, or stops sending, costs a socket and a temporary file, never a pooled database
// connection (issue 46: 25 slow uploads used to hold the whole pool). The spool file is removed on every path, a
// refusal and a client that went away included. The generated route's form validator is not used for these
// operations (app.ts): it would read the whole body into memory first, and a form's `true` is text, not the boolean
// its schema wants.
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { OperationId } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';
import type { Tx } from '../db/tenant.ts';
import { storedFileName } from '../files/file-name.ts';
import { type DetectedType, FileTypeSniffer } from '../files/file-types.ts';
import { type StoredFile, storeFile } from '../files/records.ts';
import { CHUNK_BYTES } from '../files/storage.ts';
import type { AppEnv } from './app-env.ts';
import { type Outcome, runCreation } from './idempotency.ts';
import { keepBodyReader } from './lingering-close.ts';
import { message } from './messages.ts';
import { ApiProblem, type FieldError } from './problems.ts';
import { unstorable } from './storable-text.ts';
import { invalidFields } from './validation.ts';

/** 10 MB (10 485 760 bytes), the contract's limit for every uploaded file. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * Held at most while file-type still reads the start (an Office zip's entries can be long): past it the bytes go
 * on to the storage and the type is decided at their end, before they end for the storage.
 */
export const SNIFF_HOLD_BYTES = 1024 * 1024;

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
  /** The other parts sent: text (`null` for an empty one) or boolean. */
  fields: Record<string, string | boolean | null>;
  /**
   * A digest of what was sent (file name, bytes, fields), for the idempotency check: the body's own bytes differ
   * between two sendings of the same form (each picks its own boundary).
   */
  digest: string;
};

/** The file part handed to a storage while it arrives. */
export type IncomingFile = {
  /** The bytes in order; they end once the whole form is accepted, and fail on any refusal. */
  bytes: AsyncIterable<Uint8Array>;
  /** The stored name, the type and the size: known once the bytes have ended. */
  facts(): { name: string; type: DetectedType; size: number };
};

/**
 * A creating operation whose body is a form with a file: the form is received first, outside any transaction, its
 * file into a spool file; then one transaction stores the file from the spool (its row and bytes) and runs `work`
 * with it. The idempotency check uses the form's digest; a repeat answered from the store has received (and
 * discards) the body. A refused form is the request's answer, never stored as the key's: it is refused before the
 * key is looked at.
 */
export async function createWithUpload<B, S extends 200 | 201 | 202>(
  c: Context<AppEnv>,
  spec: UploadSpec,
  work: (tx: Tx, upload: ReceivedUpload, file: StoredFile) => Promise<Outcome<B, S>>,
): Promise<Required<Omit<Outcome<B, S>, 'event'>>> {
  const { companyId } = c.get('tenant');
  const storages = c.get('deps').fileStorages;
  return spoolUpload(c, spec, (upload) =>
    runCreation(
      c,
      async (tx) => {
        const file = await storeFile(tx, storages, companyId, {
          name: upload.name,
          mimeType: upload.type.mime,
          size: upload.size,
          chunks: upload.bytes(),
        });
        return work(tx, upload, file);
      },
      async () => upload.digest,
    ),
  );
}

/** A received and accepted upload whose file waits in its spool file. */
export type SpooledUpload = ReceivedUpload & {
  /** The file's bytes, read from the spool file a chunk (256 KiB) at a time. */
  bytes(): AsyncIterable<Uint8Array>;
};

/**
 * Receives the form (receiveUpload) with its file written to a spool file in os.tmpdir(), hands the accepted upload
 * to `use`, and removes the spool file whatever happens: a refusal, a client that went away, a failure of `use`.
 */
export async function spoolUpload<T>(
  c: Context<AppEnv>,
  spec: UploadSpec,
  use: (upload: SpooledUpload) => Promise<T>,
): Promise<T> {
  const path = join(tmpdir(), `crm-upload-${randomUUID()}`);
  try {
    const upload = await receiveUpload(c, spec, async ({ bytes }) => {
      // Owner-only and never an existing file: the spool holds a company's document until it is stored.
      await pipeline(Readable.from(bytes), createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    });
    return await use({ ...upload, bytes: () => createReadStream(path, { highWaterMark: CHUNK_BYTES }) });
  } finally {
    await rm(path, { force: true });
  }
}

const fieldError = (pointer: string, code: string, detail: FieldError['detail']): FieldError => ({
  pointer,
  parameter: null,
  code,
  detail,
});

/**
 * Receives the form, handing its file part to `store` as it arrives; settles once the whole body is read and `store`
 * is done. Refusals (ApiProblem) come after the whole form, in this order: 413, the fields, a missing or empty
 * file, its type.
 */
export async function receiveUpload(
  c: Context<AppEnv>,
  spec: UploadSpec,
  store: (file: IncomingFile) => Promise<void>,
): Promise<ReceivedUpload> {
  const discardRest = keepBodyReader(c);
  const body = c.req.raw.body;
  const errors: FieldError[] = [];
  const fields: ReceivedUpload['fields'] = {};
  let file: FilePart | undefined;
  let storing: Promise<void> | undefined;
  let tooLarge = false;
  const bytesDigest = createHash('sha256');
  // Settled once the whole form is read: the refusal of the form, if any, for the file's bytes to fail with.
  let formChecked!: (refusal: ApiProblem | undefined) => void;
  const formRead = new Promise<ApiProblem | undefined>((resolve) => {
    formChecked = resolve;
  });
  // The type refused from the first bytes: the writing stops there, the rest of the form is still read.
  let typeRefusal: ApiProblem | undefined;
  const refuseType = (type: DetectedType | null) => {
    const detail = type
      ? message('upload.type_not_allowed', { found: type.mime, allowed: spec.typeNames })
      : message('upload.type_unknown', { allowed: spec.typeNames });
    return invalidFields([fieldError('/file', 'invalid_format', detail)]);
  };

  async function* accepted(received: FilePart): AsyncGenerator<Uint8Array> {
    const sniffer = new FileTypeSniffer();
    const held: Uint8Array[] = [];
    let heldBytes = 0;
    let passing = false;
    try {
      // Not destroyed when left (a refused type): busboy goes on writing the part, which is then dropped.
      for await (const chunk of received.stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        received.size += chunk.byteLength;
        bytesDigest.update(chunk);
        sniffer.feed(chunk);
        if (passing) {
          yield chunk;
          continue;
        }
        held.push(chunk);
        heldBytes += chunk.byteLength;
        const early = await sniffer.early();
        if (early !== undefined && !allowedEarly(early, spec.types)) {
          typeRefusal = refuseType(early);
          break;
        }
        if (early === undefined && heldBytes < SNIFF_HOLD_BYTES) continue;
        passing = true;
        yield* held.splice(0);
      }
    } catch (error) {
      // The part cut off (the body ended early), or the reading stopped (413, a failure): the refusal it gives.
      throw error instanceof ApiProblem ? error : malformed(error);
    }
    if (typeRefusal) {
      // The rest of the part is read and dropped, so that the rest of the form is still received.
      received.stream.resume();
      throw typeRefusal;
    }
    if (received.size > 0) {
      const type = await sniffer.end();
      if (!type || !spec.types.has(type.mime)) typeRefusal = refuseType(type);
      received.type = type ?? undefined;
    }
    const refusal = (await formRead) ?? typeRefusal;
    if (refusal) throw refusal;
    yield* held.splice(0);
  }

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
  // A write that fails otherwise than by a refusal of the form (the database, the bucket) stops the reading.
  let storeFailed: Promise<never> | undefined;
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
      const received: FilePart = { name: info.filename || 'file', size: 0, stream };
      file = received;
      stream.on('limit', () => {
        tooLarge = true;
      });
      storing = store({
        bytes: accepted(received),
        facts: () => {
          if (!received.type) throw new Error('the facts of an upload are known once its bytes have ended');
          return { name: storedFileName(received.name, received.type), type: received.type, size: received.size };
        },
      });
      storing.catch(() => {});
      storeFailed = storing.then(
        () => new Promise<never>(() => {}),
        (error) => {
          if (error instanceof ApiProblem) return new Promise<never>(() => {});
          throw error;
        },
      );
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

  /** Fails the file's bytes with `refusal` and waits until the storage has let go of them. */
  async function abandon(refusal: ApiProblem) {
    file?.stream.destroy(refusal);
    formChecked(refusal);
    await storing?.catch(() => {});
  }

  if (body !== null) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!parser.write(value)) {
          await Promise.race([once(parser, 'drain'), finished, ...(storeFailed ? [storeFailed] : [])]);
        }
        if (tooLarge) break;
      }
      if (!tooLarge) {
        parser.end();
        await Promise.race([finished, ...(storeFailed ? [storeFailed] : [])]);
      }
    } catch (error) {
      // The body rules' own refusal (a chunked body past the request limit) passes as it is.
      const refusal = error instanceof ApiProblem ? error : malformed(error);
      await abandon(refusal);
      throw storeFailure(await settledError(storing)) ?? refusal;
    } finally {
      reader.releaseLock();
    }
  }
  if (tooLarge) {
    const refusal = new ApiProblem(
      'payload_too_large',
      message('upload.file_too_large', { max: MAX_FILE_BYTES }),
      {},
      { Connection: 'close' },
      discardRest(),
    );
    // The parser is left as it is (destroying it would fail its open file part): nothing reads it any more.
    await abandon(refusal);
    throw refusal;
  }
  let refusal: ApiProblem | undefined;
  if (errors.length > 0) refusal = invalidFields(errors);
  else if (!file) refusal = invalidFields([fieldError('/file', 'required', message('upload.file_missing'))]);
  else if (file.size === 0) refusal = invalidFields([fieldError('/file', 'too_small', message('upload.file_empty'))]);
  formChecked(refusal);
  const failure = await settledError(storing);
  if (refusal) throw refusal;
  if (failure) throw failure;
  if (!file?.type) throw new Error('an accepted upload without its type');
  const digest = createHash('sha256')
    .update(JSON.stringify([file.name, bytesDigest.digest('hex'), Object.entries(fields).sort()]))
    .digest('hex');
  // Stored under a safe name whose extension is the detected type's (src/files/file-name.ts).
  return { name: storedFileName(file.name, file.type), type: file.type, size: file.size, fields, digest };
}

/** The form's file part while it is received. */
type FilePart = { name: string; size: number; stream: Readable; type?: DetectedType };

/** Whether a type named from the first bytes may still be accepted: a compound file may turn out Word or Excel. */
function allowedEarly(type: DetectedType | null, types: ReadonlySet<string>): boolean {
  if (type?.ext === 'cfb') return types.has('application/msword') || types.has('application/vnd.ms-excel');
  return type !== null && types.has(type.mime);
}

/** The error a write ended with, if any. */
async function settledError(storing: Promise<void> | undefined): Promise<unknown> {
  if (!storing) return undefined;
  return storing.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** A write's failure that is not a refusal of the form (those are thrown in their order by the reading). */
function storeFailure(error: unknown): unknown {
  return error instanceof ApiProblem ? undefined : error;
}

const unstorableDetail = (text: string) =>
  message(unstorable(text) === 'nul' ? 'body.nul_character' : 'body.lone_surrogate');

function malformed(error: unknown): ApiProblem {
  const reason = error instanceof Error ? error.message : String(error);
  return invalidFields([fieldError('', 'invalid_format', message('upload.malformed', { reason }))]);
}
