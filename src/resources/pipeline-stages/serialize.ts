import type { pipelineStages } from '../../db/schema/index.ts';
import { LANGUAGES, type Language } from '../../http/language.ts';
import { idString } from '../../http/serialize.ts';

export type StageRow = typeof pipelineStages.$inferSelect;

/**
 * `name` in the response's language; without a name in it, the company's language, else the first name in
 * the order nl, en, de, fr.
 */
export function serializeStage(row: StageRow, language: Language, companyLanguage: string) {
  const names = { nl: row.nameNl, en: row.nameEn, de: row.nameDe, fr: row.nameFr };
  const inCompanyLanguage = LANGUAGES.find((l) => l === companyLanguage);
  const name =
    names[language] ??
    (inCompanyLanguage ? names[inCompanyLanguage] : null) ??
    LANGUAGES.map((l) => names[l]).find((n) => n !== null) ??
    '';
  return {
    object: 'pipeline_stage' as const,
    id: idString(row.id),
    name,
    names,
    type: row.type,
    is_default: row.isDefault,
    position: row.position,
    probability: row.probability,
    color: row.color,
  };
}
