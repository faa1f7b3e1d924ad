import { DOCUMENT_TYPES } from '../../files/file-types.ts';
import { deleteFile } from '../../files/records.ts';
import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { createWithUpload } from '../../http/upload.ts';
import { quoteAttachmentMessages as texts } from './messages.ts';
import * as q from './queries.ts';
import { serializeAttachment } from './serialize.ts';

/** The contract's limit per quote. */
export const MAX_ATTACHMENTS = 20;

const quoteNotFound = () => new ApiProblem('not_found', texts.message('quote_attachment.quote_not_found'));

export const handlers = {
  listQuoteAttachments: async (c) => {
    const { quote } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.quoteExists(tx, companyId, quote))) throw quoteNotFound();
      return q.listAttachments(tx, companyId, quote, { limit: query.limit, cursor: query.cursor, sort: query.sort });
    });
    const links = c.get('deps').fileLinks;
    return c.json({ data: page.data.map((row) => serializeAttachment(row, links)), meta: page.meta }, 200);
  },

  createQuoteAttachment: async (c) => {
    const { quote } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const deps = c.get('deps');
    // The form is received first (its file streamed into the storage), then the quote is locked and checked.
    const created = await createWithUpload(
      c,
      {
        types: DOCUMENT_TYPES,
        typeNames: 'PDF, JPEG, PNG, GIF, WebP, Word, Excel',
        fields: { description: { kind: 'text', maxLength: 255 }, visible_to_customer: { kind: 'boolean' } },
      },
      async (tx, upload, file) => {
        // The quote stays locked until the end: two uploads at once cannot both be the 20th.
        if (!(await q.quoteExists(tx, companyId, quote, true))) throw quoteNotFound();
        if ((await q.countAttachments(tx, companyId, quote)) >= MAX_ATTACHMENTS) {
          throw new ApiProblem(
            'limit_reached',
            texts.message('quote_attachment.limit_reached', { max: MAX_ATTACHMENTS }),
          );
        }
        const description = upload.fields.description;
        const row = await q.insertAttachment(tx, {
          companyId,
          quoteId: quote,
          file,
          description: typeof description === 'string' ? description : null,
          visibleToCustomer: upload.fields.visible_to_customer === true,
        });
        return { status: 201 as const, body: { data: serializeAttachment(row, deps.fileLinks) } };
      },
    );
    return c.json(created.body, created.status, created.headers);
  },

  deleteQuoteAttachment: async (c) => {
    const { quote, attachment } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const deps = c.get('deps');
    await c.get('tenant').transaction(async (tx) => {
      if (!(await q.quoteExists(tx, companyId, quote))) throw quoteNotFound();
      const row = await q.findAttachment(tx, companyId, quote, attachment);
      if (!row) throw new ApiProblem('not_found', texts.message('quote_attachment.not_found'));
      await q.deleteAttachmentRow(tx, companyId, row.id);
      await deleteFile(tx, deps.fileStorages, companyId, row.fileId);
    });
    return c.json({ data: { object: 'attachment' as const, id: attachment, deleted: true as const } }, 200);
  },
} satisfies Partial<Handlers>;
