// Photos as the PDF prints them. pdfkit embeds an image's bytes as they are, so a 10 MB phone photo would make a
// 10 MB page (a work order holds 30): every photo is decoded and written again at print size with sharp, once,
// by the work_order_photo_print job after its upload (src/resources/work-orders/jobs/), never while a PDF renders.
// The reduction has limits of its own: the pixels sharp may decode (a small PNG can claim 16000 × 16000), the time
// it may take and the bytes of the result. Orientation from EXIF is applied first, as a phone shows the photo; GIF
// and WebP become their first frame; transparency is flattened onto the page's white.

/** sharp, loaded at the first photo reduced: a process that reduces none (most) does not load libvips. */
const loadSharp = async () => (await import('sharp')).default;

/**
 * Longest side in pixels. A photo box on the page is 237 × 180 points (two side by side on A4), so 800 pixels is
 * about 240 dpi across its width and 320 dpi down its height: print quality, and at JPEG quality 75 at most about
 * 230 KB even for pure noise, so 30 photos stay under 7 MB.
 */
export const MAX_PRINT_PIXELS = 800;
export const PRINT_JPEG_QUALITY = 75;

/** Most pixels of a photo sharp decodes: 100 megapixels, more than any phone camera gives (a 108 MP sensor bins). */
export const MAX_INPUT_PIXELS = 100_000_000;
/** Most seconds one reduction may take (sharp stops its own work at the limit). */
export const PRINT_TIMEOUT_SECONDS = 20;
/** Most bytes of a print version; a photo above it at the lowest quality tried fails. */
export const MAX_PRINT_BYTES = 320 * 1024;
/** Qualities tried in turn until the print version fits MAX_PRINT_BYTES. */
const QUALITIES = [PRINT_JPEG_QUALITY, 60, 45];

/** Why a photo has no print version (the contract's `print_failure`). */
export type PrintFailure = 'too_many_pixels' | 'too_slow' | 'too_large' | 'unreadable';

export type PrintablePhoto =
  | { ok: true; image: Buffer; width: number; height: number; mimeType: 'image/jpeg' }
  | { ok: false; failure: PrintFailure };

export type PrintLimits = { maxInputPixels: number; timeoutSeconds: number; maxBytes: number };

export const PRINT_LIMITS: PrintLimits = {
  maxInputPixels: MAX_INPUT_PIXELS,
  timeoutSeconds: PRINT_TIMEOUT_SECONDS,
  maxBytes: MAX_PRINT_BYTES,
};

function failureOf(error: unknown): PrintFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return 'too_many_pixels';
  if (/timeout/i.test(message)) return 'too_slow';
  return 'unreadable';
}

/** The photo at print size as JPEG within `limits`, or why it cannot be. */
export async function printablePhoto(bytes: Buffer, limits: PrintLimits = PRINT_LIMITS): Promise<PrintablePhoto> {
  const sharp = await loadSharp();
  try {
    // Decoded and reduced once, within the pixel and time limits; only the small result is encoded per quality.
    const reduced = await sharp(bytes, { failOn: 'none', limitInputPixels: limits.maxInputPixels })
      .timeout({ seconds: limits.timeoutSeconds })
      .rotate()
      .resize({ width: MAX_PRINT_PIXELS, height: MAX_PRINT_PIXELS, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = reduced.info;
    for (const quality of QUALITIES) {
      const image = await sharp(reduced.data, { raw: { width, height, channels } }).jpeg({ quality }).toBuffer();
      if (image.byteLength <= limits.maxBytes) return { ok: true, image, width, height, mimeType: 'image/jpeg' };
    }
    return { ok: false, failure: 'too_large' };
  } catch (error) {
    return { ok: false, failure: failureOf(error) };
  }
}
