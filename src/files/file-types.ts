// A file's type, decided from its bytes (file-type's signatures), never from its name or the type its sender
// declared: a renamed executable stays an executable. Legacy Word and Excel files are both OLE2 compound files
// to file-type (`cfb`); which one is told by the stream inside that every such file has (`WordDocument` for
// Word, `Workbook` or `Book` for Excel), whose name is written in the compound file's directory.
import { fileTypeFromStream } from 'file-type';

export type DetectedType = { ext: string; mime: string };

/** Attachments: PDF, images, Word and Excel. */
export const DOCUMENT_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);

/** Photos (work orders): images only. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

const utf16 = (name: string) => Buffer.from(`${name}\u0000`, 'utf16le');
const CFB_STREAMS: [Buffer, DetectedType][] = [
  [utf16('WordDocument'), { ext: 'doc', mime: 'application/msword' }],
  [utf16('Workbook'), { ext: 'xls', mime: 'application/vnd.ms-excel' }],
  [utf16('Book'), { ext: 'xls', mime: 'application/vnd.ms-excel' }],
];

const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const LONGEST_NAME = Math.max(...CFB_STREAMS.map(([name]) => name.length));

/**
 * Decides a file's type while its bytes arrive (an upload streamed into the storage): fed each chunk as it comes,
 * it answers as soon as file-type has read the start it needs (a few KiB; an Office zip's first entries), and a
 * compound file's Word or Excel only once its directory has passed (`end`). It keeps no bytes of its own but the
 * few of a name split between two chunks.
 */
export class FileTypeSniffer {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private open = true;
  private found: DetectedType | null | undefined;
  private readonly detection: Promise<DetectedType | null>;
  private head = Buffer.alloc(0);
  private compound: DetectedType | null = null;
  private tail = Buffer.alloc(0);

  constructor() {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.open = false;
      },
    });
    this.detection = fileTypeFromStream(stream).then(
      (type) => {
        this.stop();
        this.found = type ? { ext: type.ext, mime: type.mime } : null;
        return this.found;
      },
      () => {
        this.stop();
        this.found = null;
        return null;
      },
    );
  }

  /** The next bytes of the file, in order. */
  feed(chunk: Uint8Array): void {
    if (this.open) this.controller.enqueue(chunk);
    if (this.head.length < CFB_MAGIC.length) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, CFB_MAGIC.length - this.head.length)]);
    }
    if (this.compound || !this.head.subarray(0, CFB_MAGIC.length).equals(CFB_MAGIC.subarray(0, this.head.length))) {
      return;
    }
    // The end of the previous chunk goes along, so that a name split between two chunks is still found. Directory
    // entries start at multiples of 128 bytes and the name is their first field: the name with its terminator is
    // enough to tell.
    const window = Buffer.concat([this.tail, chunk]);
    this.compound = CFB_STREAMS.find(([name]) => window.includes(name))?.[1] ?? null;
    this.tail = window.subarray(Math.max(0, window.length - LONGEST_NAME + 1));
  }

  /**
   * The type as far as the start tells, once file-type has answered (it is given a turn of the event loop first):
   * `undefined` while it still reads, `null` when it does not recognize the bytes; a compound file is `cfb` until `end`.
   */
  async early(): Promise<DetectedType | null | undefined> {
    if (this.found === undefined) await Promise.race([this.detection, new Promise((done) => setImmediate(done))]);
    return this.found;
  }

  /** The type of the whole file, after its last bytes were fed. */
  async end(): Promise<DetectedType | null> {
    this.stop();
    const found = await this.detection;
    if (found?.ext === 'cfb') return this.compound;
    return found;
  }

  private stop() {
    if (!this.open) return;
    this.open = false;
    try {
      this.controller.close();
    } catch {
      // Already closed or cancelled by file-type.
    }
  }
}

/** The type of bytes at hand (in order). */
export async function detectFileType(chunks: readonly Uint8Array[]): Promise<DetectedType | null> {
  const sniffer = new FileTypeSniffer();
  for (const chunk of chunks) sniffer.feed(chunk);
  return sniffer.end();
}
