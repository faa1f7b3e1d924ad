import type { customFields } from '../../db/schema/index.ts';
import { type CustomFieldLabels, labelIn } from '../../domain/custom-fields.ts';
import type { Language } from '../../http/language.ts';
import { iso } from '../../http/serialize.ts';

export type CustomFieldRow = typeof customFields.$inferSelect;

/** Every language, `null` where the labels have none. */
const labelsOut = (labels: CustomFieldLabels) => ({
  nl: labels.nl ?? null,
  en: labels.en ?? null,
  de: labels.de ?? null,
  fr: labels.fr ?? null,
});

/** `label` (and each option's) in the response's language, with the fallback of labelIn. */
export function serializeCustomField(row: CustomFieldRow, language: Language, companyLanguage: string) {
  return {
    object: 'custom_field' as const,
    id: row.id,
    key: row.key,
    resource: row.resource,
    type: row.type,
    label: labelIn(row.labels, language, companyLanguage),
    labels: labelsOut(row.labels),
    decimals: row.decimals,
    options:
      row.options?.map((option) => ({
        key: option.key,
        label: labelIn(option.labels, language, companyLanguage),
        labels: labelsOut(option.labels),
      })) ?? null,
    required: row.required,
    position: row.position,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
