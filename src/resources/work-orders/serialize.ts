import type { ChecklistPoint, WorkOrderLine } from '../../db/schema/index.ts';
import type { FileLinks } from '../../files/signed-links.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';
import { serializeTaxBreakdown } from '../quotes/serialize.ts';
import type { PhotoRow, WorkOrderWithPhotos } from './queries.ts';

export function serializePhoto(row: PhotoRow, links: FileLinks) {
  return {
    object: 'work_order_photo' as const,
    id: row.id,
    work_order_id: row.workOrderId,
    kind: row.kind,
    caption: row.caption,
    download_url: links.url({ companyId: row.companyId, fileId: row.fileId }),
    print_status: row.printStatus,
    print_failure: row.printProblem,
    created_at: iso(row.createdAt),
  };
}

/** A stored line as the contract's work_order_item (the fields quotes and invoices add are not shown here). */
const serializeItem = (line: WorkOrderLine) => ({
  object: 'work_order_item' as const,
  id: line.id,
  type: line.type,
  name: line.name,
  description: line.description,
  sku: line.sku,
  quantity: line.quantity,
  unit: line.unit,
  unit_price: line.unit_price,
  discount_percentage: line.discount_percentage,
  discount_amount: line.discount_amount,
  line_total: line.line_total,
  is_taxable: line.is_taxable,
  tax_rate: line.tax_rate,
  minutes: line.minutes,
});

const serializePoint = (point: ChecklistPoint) => ({ object: 'work_order_checklist_item' as const, ...point });

/** The figures of a work order (it has no document discount), as its answer and its PDF show them. */
export const workOrderFigures = (row: Pick<WorkOrderWithPhotos, 'items' | 'subtotal' | 'taxAmount' | 'total'>) => ({
  subtotal: row.subtotal,
  tax_breakdown: serializeTaxBreakdown(row.items, '0.00'),
  tax_amount: row.taxAmount,
  total: row.total,
});

export function serializeWorkOrder(row: WorkOrderWithPhotos, links: FileLinks) {
  const c = row.customer;
  return {
    object: 'work_order' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    title: row.title,
    type: row.type,
    location: row.location,
    description: row.description,
    work_performed: row.workPerformed,
    customer_notes: row.customerNotes,
    customer_id: row.customerId,
    customer: {
      type: c.type,
      name: c.name,
      email: c.email,
      phone: c.phone,
      address: c.address,
      postal_code: c.postal_code,
      city: c.city,
      country: c.country,
    },
    deal_id: row.dealId,
    appointment_id: row.appointmentId,
    quote_id: row.quoteId,
    invoice_id: row.invoiceId,
    assigned_user_id: row.assignedUserId === null ? null : idString(row.assignedUserId),
    language: row.language,
    currency: row.currency,
    ...workOrderFigures(row),
    scheduled_at: isoOrNull(row.scheduledAt),
    started_at: isoOrNull(row.startedAt),
    completed_at: isoOrNull(row.completedAt),
    sent_at: isoOrNull(row.sentAt),
    signature: {
      is_signed: row.signedAt !== null,
      signed_by_name: row.signedByName,
      signed_at: isoOrNull(row.signedAt),
    },
    items: row.items.map(serializeItem),
    checklist: row.checklist.map(serializePoint),
    photos: row.photos.map((photo) => serializePhoto(photo, links)),
    created_at: iso(row.createdAt),
    metadata: row.metadata,
    updated_at: iso(row.updatedAt),
  };
}
