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

/** The type of the bytes (in order, as received), or null when file-type does not recognize them. */
export async function detectFileType(chunks: readonly Uint8Array[]): Promise<DetectedType | null> {
  // file-type reads only the start it needs from the stream (a few KiB; an Office zip's first entries).
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  const found = await fileTypeFromStream(stream);
  if (!found) return null;
  if (found.ext === 'cfb') return compoundDocumentType(chunks);
  return { ext: found.ext, mime: found.mime };
}

/** Word or Excel by the directory entry of their main stream; another compound file (an .msi, say) is neither. */
function compoundDocumentType(chunks: readonly Uint8Array[]): DetectedType | null {
  const longest = Math.max(...CFB_STREAMS.map(([name]) => name.length));
  let tail = Buffer.alloc(0);
  for (const chunk of chunks) {
    // The end of the previous chunk goes along, so that a name split between two chunks is still found.
    const window = Buffer.concat([tail, chunk]);
    for (const [name, type] of CFB_STREAMS) {
      // Directory entries start at multiples of 128 bytes; the name is their first field, so `\0` precedes it
      // only by chance: checking the name with its terminator is enough here.
      if (window.includes(name)) return type;
    }
    tail = window.subarray(Math.max(0, window.length - longest + 1));
  }
  return null;
}
