// The name a file is stored and downloaded under. The sender's name is kept as far as it is harmless: control
// characters and the bidirectional controls that make `exe.txt` look like `txt.exe` are removed, it is bounded to
// MAX_FILE_NAME characters, and its extension follows the type decided from the bytes: a PNG sent as `x.html` is
// stored as `x.html.png` (the sender's name stays readable, the last extension — the one a browser or desktop
// opens it by — is the true one), a PNG sent as `x.PNG` or a JPEG as `x.jpeg` keeps its name.
import type { DetectedType } from './file-types.ts';

/** At most this many characters (code points), extension included: what file systems take (255 bytes in ASCII). */
export const MAX_FILE_NAME = 255;

/** Extensions that name each accepted type; the first is the one added. */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
};

// Controls (C0, DEL, C1) and the bidirectional marks, embeddings, overrides and isolates (Unicode's Bidi_Control
// property), which would let a name display otherwise than it is.
const UNSAFE = /[\p{Cc}\p{Bidi_Control}]/gu;

/** The sender's name made safe to keep and show (path and all: the download header keeps its last part only). */
export function cleanFileName(given: string): string {
  return given.normalize('NFC').replace(UNSAFE, '').trim();
}

/** The stored name of an upload named `given` whose bytes are of `type`. */
export function storedFileName(given: string, type: DetectedType): string {
  // Only the last part of a path some browsers send (C:\Users\…\x.pdf) is the name.
  const base = cleanFileName(cleanFileName(given).split(/[/\\]/).pop() ?? '');
  const names = EXTENSIONS[type.mime] ?? [type.ext];
  const dot = base.lastIndexOf('.');
  const own = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const stem = names.includes(own) ? base.slice(0, dot) : base;
  const ext = names.includes(own) ? base.slice(dot + 1) : (names[0] ?? type.ext);
  // Code points, so that a cut never splits a character of two UTF-16 units.
  const room = MAX_FILE_NAME - ext.length - 1;
  const kept = Array.from(stem).slice(0, room).join('').trim() || 'file';
  return `${kept}.${ext}`;
}
