// Photos as the PDF prints them. pdfkit embeds an image's bytes as they are, so a 10 MB phone photo would make a
// 10 MB page (a work order holds 30): every photo is decoded and written again at print size with sharp, before
// it goes to the rendering thread. Orientation from EXIF is applied first, as a phone shows the photo; GIF and
// WebP become their first frame; transparency is flattened onto the page's white.

/** sharp, loaded at the first photo printed: a process that prints none (most) does not load libvips. */
const loadSharp = async () => (await import('sharp')).default;

/**
 * Longest side in pixels. A photo box on the page is 237 × 180 points (two side by side on A4), so 800 pixels is
 * about 240 dpi across its width and 320 dpi down its height: print quality, and at JPEG quality 75 at most about
 * 230 KB even for pure noise, so 30 photos stay under 7 MB.
 */
export const MAX_PRINT_PIXELS = 800;
export const PRINT_JPEG_QUALITY = 75;

export type PrintablePhoto = { image: Buffer; mimeType: 'image/jpeg' };

/** The photo at print size as JPEG, or undefined when its bytes cannot be decoded (the PDF then names it only). */
export async function printablePhoto(bytes: Buffer): Promise<PrintablePhoto | undefined> {
  const sharp = await loadSharp();
  try {
    const image = await sharp(bytes, { failOn: 'none' })
      .rotate()
      .resize({ width: MAX_PRINT_PIXELS, height: MAX_PRINT_PIXELS, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: PRINT_JPEG_QUALITY })
      .toBuffer();
    return { image, mimeType: 'image/jpeg' };
  } catch {
    return undefined;
  }
}
