// A document's PDF for a request: the one kept for its content when there is one (src/pdf/rendered-pdfs.ts), else
// rendered in the company's turn on the pool of rendering threads (src/pdf/render-pool.ts) and kept, a limit it hits
// answered as `503 pdf_render_limit_exceeded` with Retry-After, in the request's language. One place for the
// downloads of quotes, invoices and work orders (by key or public link) and the PDFs attached when one is sent.
import type { Tenant, Tx } from '../db/tenant.ts';
import type { DocumentPdfView } from '../pdf/document-view.ts';
import { type PdfRenderer, PdfRenderLimitError, type RenderLimit } from '../pdf/render-pool.ts';
import { contentKey, type KeptPdf, keepPdf, keptPdf, keptPdfIn, type PdfVariant } from '../pdf/rendered-pdfs.ts';
import { defineMessages } from './message-catalogue.ts';
import { ApiProblem } from './problems.ts';

/** Seconds to wait before asking again: about the time a few large documents take to render. */
const RETRY_AFTER_SECONDS = 5;

const texts = defineMessages({
  'pdf.limit_time': {
    en: 'The PDF did not finish within {seconds|one:# second|other:# seconds}, the time limit of one document; try again after Retry-After seconds.',
    nl: 'De pdf was niet binnen {seconds|one:# seconde|other:# seconden} klaar, de tijdslimiet van één document; probeer het opnieuw na Retry-After seconden.',
    de: 'Das PDF war nicht innerhalb von {seconds|one:# Sekunde|other:# Sekunden} fertig, dem Zeitlimit eines Dokuments; versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Le PDF n’a pas été terminé en {seconds|one:# seconde|other:# secondes}, la limite de temps d’un document ; réessayez après Retry-After secondes.',
  },
  'pdf.limit_memory': {
    en: 'The PDF needed more than {megabytes} MB, the memory limit of one document; shorten the document’s texts.',
    nl: 'De pdf had meer dan {megabytes} MB nodig, de geheugenlimiet van één document; maak de teksten van het document korter.',
    de: 'Das PDF brauchte mehr als {megabytes} MB, das Speicherlimit eines Dokuments; kürzen Sie die Texte des Dokuments.',
    fr: 'Le PDF demandait plus de {megabytes} Mo, la limite de mémoire d’un document ; raccourcissez les textes du document.',
  },
  'pdf.limit_pages': {
    en: 'The PDF would have more than {pages} pages, the most one document may have; shorten the document’s texts.',
    nl: 'De pdf zou meer dan {pages} pagina’s krijgen, het maximum voor één document; maak de teksten van het document korter.',
    de: 'Das PDF hätte mehr als {pages} Seiten, das Höchste für ein Dokument; kürzen Sie die Texte des Dokuments.',
    fr: 'Le PDF aurait plus de {pages} pages, le maximum pour un document ; raccourcissez les textes du document.',
  },
  'pdf.limit_queue': {
    en: 'Too many PDFs are waiting to be rendered; try again after Retry-After seconds.',
    nl: 'Er wachten te veel pdf’s om te worden gemaakt; probeer het opnieuw na Retry-After seconden.',
    de: 'Zu viele PDFs warten darauf, erstellt zu werden; versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Trop de PDF attendent d’être produits ; réessayez après Retry-After secondes.',
  },
} as const);

function detailOf(limit: RenderLimit, value: number) {
  switch (limit) {
    case 'time':
      return texts.message('pdf.limit_time', { seconds: Math.ceil(value / 1000) });
    case 'memory':
      return texts.message('pdf.limit_memory', { megabytes: value });
    case 'pages':
      return texts.message('pdf.limit_pages', { pages: value });
    case 'queue':
      return texts.message('pdf.limit_queue');
  }
}

/** Whose PDF it is, and where its kept copy is read and written: a short transaction of its own, or the caller's. */
export type PdfOwner = { tenant: Tenant } | { tx: Tx; companyId: string };

/** A document's PDF to make: its view and the variant it is kept as. */
export type DocumentPdf = {
  documentId: string;
  variant: PdfVariant;
  view: DocumentPdfView;
  /** Work orders: the photos' print versions, keyed by `key` and read by `load` only when the PDF is rendered. */
  photos?: { key: string; load: () => Promise<NonNullable<DocumentPdfView['photos']>> };
};

export type PdfOptions = {
  /**
   * Runs a render, not a kept PDF's read: the public pages count it against their render limits (throwing to refuse)
   * and hold one of the company's PDF slots while it runs.
   */
  aroundRender?: (render: () => Promise<Buffer>) => Promise<Buffer>;
};

const companyOf = (owner: PdfOwner) => ('tenant' in owner ? owner.tenant.companyId : owner.companyId);

/**
 * The PDF of `doc`: the kept one when it was rendered from the same content (src/pdf/rendered-pdfs.ts), else
 * rendered in the company's turn on the rendering threads and kept. Downloads of the same content at once share one
 * render. A limit hit becomes the API's problem.
 */
export async function documentPdf(
  renderer: PdfRenderer,
  owner: PdfOwner,
  doc: DocumentPdf,
  options: PdfOptions = {},
): Promise<{ pdf: Buffer; contentKey: string }> {
  const companyId = companyOf(owner);
  const kept: KeptPdf = {
    documentId: doc.documentId,
    variant: doc.variant,
    contentKey: contentKey(doc.view, doc.variant, doc.photos?.key),
  };
  const found = 'tenant' in owner ? await keptPdf(owner.tenant, kept) : await keptPdfIn(owner.tx, companyId, kept);
  if (found) return { pdf: found, contentKey: kept.contentKey };
  const render = async () => {
    const view = doc.photos ? { ...doc.view, photos: await doc.photos.load() } : doc.view;
    const rendered = await renderPdf(renderer, view, companyId);
    if ('tenant' in owner) await owner.tenant.transaction((tx) => keepPdf(tx, companyId, kept, rendered));
    return rendered;
  };
  const pdf = await renderer.shared(`${companyId}:${kept.documentId}:${kept.variant}:${kept.contentKey}`, () =>
    options.aroundRender ? options.aroundRender(render) : render(),
  );
  if ('tx' in owner) await keepPdf(owner.tx, companyId, kept, pdf);
  return { pdf, contentKey: kept.contentKey };
}

/** The PDF of `view`, rendered in `companyId`'s turn; a limit hit becomes the API's problem. */
async function renderPdf(renderer: PdfRenderer, view: DocumentPdfView, companyId: string): Promise<Buffer> {
  try {
    return await renderer.render(view, companyId);
  } catch (error) {
    if (!(error instanceof PdfRenderLimitError)) throw error;
    throw new ApiProblem(
      'pdf_render_limit_exceeded',
      detailOf(error.limit, error.value),
      {},
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    );
  }
}
