// What `q` finds in custom fields (issue 51): the term, as written and ignoring case, in the value of a text-like
// field (text, long text, email, URL, phone; a phone also by the term's digits), and the options of a select whose
// key or label (in any language) contains the term. Dates, money, numbers and booleans are not searched: their
// filters find them. The index (drizzle/0050) holds every string value of a record, so its candidates are checked
// again with `condition`, per field.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { CustomFieldType, FieldDefinition } from '../../domain/custom-fields.ts';

const TEXT_LIKE: ReadonlySet<CustomFieldType> = new Set(['text', 'long_text', 'email', 'url', 'phone']);

/** The term as customers' `q` reads it: lowercased text, its LIKE pattern, and its digits' (a phone number). */
export type SearchTerm = { text: string; pattern: string; digitsPattern: string | null };

export type FieldSearch = {
  /** The term in one of the fields, on a record's `custom_fields`. */
  condition: SQL;
  /** LIKE patterns of the record's custom-field text (app_custom_field_text) that every match has one of. */
  patterns: string[];
  /** Whether the trigram index can look each pattern up (three letters or digits in a row). */
  indexable: boolean;
};

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
const hasTrigram = (text: string) => /[\p{L}\p{N}]{3}/u.test(text);

/** The search of `term` in the fields on `column`; undefined when no field can hold it. */
export function customFieldSearch(
  fields: ReadonlyMap<string, FieldDefinition>,
  column: AnyColumn,
  term: SearchTerm,
): FieldSearch | undefined {
  const conditions: SQL[] = [];
  const patterns = new Set<string>();
  let indexable = true;
  for (const field of fields.values()) {
    const value = sql`(${column} ->> ${field.key}::text)`;
    if (TEXT_LIKE.has(field.type)) {
      conditions.push(sql`lower(${value} collate "und-x-icu") like ${term.pattern}`);
      patterns.add(term.pattern);
      if (field.type === 'phone' && term.digitsPattern !== null) {
        // A phone is stored in E.164 (+ and digits): its digits are the value without the +.
        conditions.push(sql`${value} like ${term.digitsPattern}`);
        patterns.add(term.digitsPattern);
      }
      continue;
    }
    const chosen = (field.options ?? [])
      .filter((o) => [o.key, ...Object.values(o.labels)].some((t) => t?.toLowerCase().includes(term.text)))
      .map((o) => o.key);
    if (chosen.length === 0) continue;
    // A single select holds one key (a jsonb string), a multi-select a list of keys: `?|` finds either.
    const keys = sql.join(
      chosen.map((k) => sql`${k}::text`),
      sql`, `,
    );
    conditions.push(sql`(${column} -> ${field.key}::text) ?| array[${keys}]`);
    for (const k of chosen) {
      patterns.add(`%${likeEscaped(k)}%`);
      indexable &&= hasTrigram(k);
    }
  }
  if (conditions.length === 0) return undefined;
  return { condition: sql`(${sql.join(conditions, sql` or `)})`, patterns: [...patterns], indexable };
}
