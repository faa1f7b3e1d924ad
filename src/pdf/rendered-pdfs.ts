// Rendered PDFs kept per document (table rendered_pdfs, drizzle/0042), so a repeated download — a public link
// above all — renders once. The key is the content: a hash of everything the PDF prints (the view: the document at
// its version, the company's details, the language, the kind) and of the rendering code itself, so a changed
// document, company detail or deployed renderer gives a new key and the stale row is simply replaced. Kept in
// PostgreSQL so that every API node agrees; one row per document and variant bounds the table, and rows rendered
// over a week ago are purged hourly (purge_rendered_pdfs).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { renderedPdfs } from '../db/schema/index.ts';
import type { Tenant, Tx } from '../db/tenant.ts';
import type { DocumentPdfView } from './document-view.ts';

export type PdfVariant = (typeof renderedPdfs.$inferInsert)['variant'];

/** Days a rendered PDF is kept; a document still downloaded then renders once more. */
export const RENDERED_PDF_DAYS = 7;

/** A PDF larger than this is not kept (none of the contract's documents comes near; it bounds one row). */
export const MAX_KEPT_PDF_BYTES = 32 * 1024 * 1024;

let codeVersion: string | undefined;

/**
 * The rendering code's own fingerprint: the files of this folder and the versions of pdfkit and the fonts, read
 * once. A deployment that changes how PDFs look changes it, and with it every key.
 */
export function renderCodeVersion(): string {
  if (codeVersion) return codeVersion;
  const hash = createHash('sha256');
  const folder = fileURLToPath(new URL('.', import.meta.url));
  for (const name of readdirSync(folder).sort()) {
    if (!/\.(ts|mjs)$/.test(name)) continue;
    hash.update(name).update(readFileSync(`${folder}/${name}`));
  }
  // The service's own package.json pins them exactly (pdfkit's exports do not offer its package.json).
  const manifest: { dependencies: Record<string, string> } = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  );
  for (const dependency of ['pdfkit', 'dejavu-fonts-ttf'])
    hash.update(`${dependency}@${manifest.dependencies[dependency]}`);
  codeVersion = hash.digest('hex').slice(0, 16);
  return codeVersion;
}

/**
 * The content key of `view` as `variant`. `extra` stands for what the view will hold but does not hold yet (a work
 * order's photos are keyed by their print versions' ids, their bytes read only for a render).
 */
export function contentKey(view: DocumentPdfView, variant: PdfVariant, extra = ''): string {
  const hash = createHash('sha256');
  hash.update(renderCodeVersion()).update('\0').update(variant).update('\0').update(extra).update('\0');
  hash.update(
    JSON.stringify(view, (_key, value: unknown) =>
      value instanceof Uint8Array ? createHash('sha256').update(value).digest('hex') : value,
    ),
  );
  return hash.digest('base64url');
}

export type KeptPdf = { documentId: string; variant: PdfVariant; contentKey: string };

const FIND = `select * from rendered_pdfs
  where company_id = $1 and document_id = $2 and variant = $3 and content_key = $4`;

/** The kept PDF of `kept`, if it was rendered from the same content; one read statement. */
export async function keptPdf(tenant: Tenant, kept: KeptPdf): Promise<Buffer | undefined> {
  const [row] = await tenant.read(renderedPdfs, {
    sql: FIND,
    params: [tenant.companyId, kept.documentId, kept.variant, kept.contentKey],
  });
  return row?.pdf;
}

/** The same in the caller's transaction (a send renders its attachment there). */
export async function keptPdfIn(tx: Tx, companyId: string, kept: KeptPdf): Promise<Buffer | undefined> {
  const [row] = await tx
    .select({ pdf: renderedPdfs.pdf })
    .from(renderedPdfs)
    .where(
      sql`${renderedPdfs.companyId} = ${companyId} and ${renderedPdfs.documentId} = ${kept.documentId}
        and ${renderedPdfs.variant} = ${kept.variant} and ${renderedPdfs.contentKey} = ${kept.contentKey}`,
    );
  return row?.pdf;
}

/** Keeps `pdf` as the document's PDF of its variant, in place of the one before. */
export async function keepPdf(tx: Tx, companyId: string, kept: KeptPdf, pdf: Buffer): Promise<void> {
  if (pdf.byteLength > MAX_KEPT_PDF_BYTES) return;
  await tx
    .insert(renderedPdfs)
    .values({ companyId, ...kept, pdf, size: pdf.byteLength })
    .onConflictDoUpdate({
      target: [renderedPdfs.companyId, renderedPdfs.documentId, renderedPdfs.variant],
      set: { contentKey: kept.contentKey, pdf, size: pdf.byteLength, renderedAt: sql`now()` },
    });
}
