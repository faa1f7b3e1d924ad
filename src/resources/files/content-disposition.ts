// `Content-Disposition: attachment` with a file name no browser or proxy can misread (RFC 6266, RFC 8187): an
// ASCII fallback without quotes, backslashes, controls or path separators, and the real name as `filename*`.
import { cleanFileName } from '../../files/file-name.ts';

/** The header for a download of `name`. */
export function attachmentDisposition(name: string): string {
  // Names stored before uploads were cleaned (src/files/file-name.ts) are cleaned here too.
  const base = cleanFileName(name.split(/[/\\]/).pop() ?? '') || 'file';
  const fallback = base.replace(/[^\x20-\x7E]|["%;\\]/g, '_');
  const encoded = encodeURIComponent(base).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return fallback === base
    ? `attachment; filename="${base}"`
    : `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
