import type { deals } from '../../db/schema/index.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';

export type DealRow = typeof deals.$inferSelect;

export function serializeDeal(row: DealRow) {
  return {
    object: 'deal' as const,
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    value: row.value,
    currency: row.currency,
    value_source: row.valueSource,
    external_ref: row.externalRef,
    stage: { object: 'pipeline_stage' as const, id: idString(row.stageId) },
    customer_id: row.customerId,
    assigned_user_id: row.assignedUserId === null ? null : idString(row.assignedUserId),
    source: row.source,
    lost_reason: row.lostReason,
    is_archived: row.isArchived,
    stage_changed_at: iso(row.stageChangedAt),
    won_at: isoOrNull(row.wonAt),
    lost_at: isoOrNull(row.lostAt),
    archived_at: isoOrNull(row.archivedAt),
    metadata: row.metadata,
    custom_fields: row.customFields,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
