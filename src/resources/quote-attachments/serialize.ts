import type { FileLinks } from '../../files/signed-links.ts';
import { iso } from '../../http/serialize.ts';
import type { AttachmentRow } from './queries.ts';

export function serializeAttachment(row: AttachmentRow, links: FileLinks) {
  return {
    object: 'attachment' as const,
    id: row.id,
    quote_id: row.quoteId,
    name: row.file.name,
    mime_type: row.file.mimeType,
    size: row.file.size,
    description: row.description,
    visible_to_customer: row.visibleToCustomer,
    download_url: links.url({ companyId: row.companyId, fileId: row.fileId }),
    created_at: iso(row.createdAt),
  };
}
