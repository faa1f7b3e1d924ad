// Photos as the PDF can carry them: pdfkit embeds only JPEG and PNG, and embeds them as they are, so a GIF or WebP
// photo is converted to PNG (its first frame; transparency kept) and a photo larger than print needs is scaled
// down (a 12-megapixel phone photo would otherwise make a PDF of tens of megabytes). Orientation from EXIF is
// applied first, as a phone shows the photo.
import sharp from 'sharp';

/** Longest side in pixels: two photos side by side on A4 at about 300 dpi. */
export const MAX_PRINT_PIXELS = 1600;

export type PrintablePhoto = { image: Buffer; mimeType: 'image/jpeg' | 'image/png' };

export async function printablePhoto(bytes: Buffer, mimeType: string): Promise<PrintablePhoto> {
  const image = sharp(bytes, { failOn: 'none' });
  const { width = 0, height = 0, orientation } = await image.metadata();
  const large = Math.max(width, height) > MAX_PRINT_PIXELS;
  const rotated = orientation !== undefined && orientation !== 1;
  if ((mimeType === 'image/jpeg' || mimeType === 'image/png') && !large && !rotated) return { image: bytes, mimeType };
  const fitted = image
    .rotate()
    .resize({ width: MAX_PRINT_PIXELS, height: MAX_PRINT_PIXELS, fit: 'inside', withoutEnlargement: true });
  if (mimeType === 'image/jpeg') return { image: await fitted.jpeg({ quality: 82 }).toBuffer(), mimeType };
  return { image: await fitted.png({ compressionLevel: 9 }).toBuffer(), mimeType: 'image/png' };
}
