// A customer's timeline: the events about the customer, its notes and its deals that the key may read.
import { and, eq, inArray } from 'drizzle-orm';
import { events } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import type { Language } from '../../http/language.ts';
import { keyset, type PageRequest } from '../../http/pagination.ts';

type EventRow = typeof events.$inferSelect;

const SUMMARIES: Record<string, Record<Language, string>> = {
  'customer.created': { en: 'Customer created', nl: 'Klant aangemaakt', de: 'Kunde angelegt', fr: 'Client créé' },
  'customer.updated': {
    en: 'Details changed',
    nl: 'Gegevens gewijzigd',
    de: 'Daten geändert',
    fr: 'Coordonnées modifiées',
  },
  'customer.converted': {
    en: 'Lead converted into a customer',
    nl: 'Lead omgezet in klant',
    de: 'Lead in Kunden umgewandelt',
    fr: 'Prospect converti en client',
  },
  'deal.created': { en: 'Deal created', nl: 'Deal aangemaakt', de: 'Deal angelegt', fr: 'Affaire créée' },
  'deal.updated': { en: 'Deal changed', nl: 'Deal gewijzigd', de: 'Deal geändert', fr: 'Affaire modifiée' },
  'deal.stage_changed': { en: 'Deal moved', nl: 'Deal verplaatst', de: 'Deal verschoben', fr: 'Affaire déplacée' },
  'deal.won': { en: 'Deal won', nl: 'Deal gewonnen', de: 'Deal gewonnen', fr: 'Affaire gagnée' },
  'deal.lost': { en: 'Deal lost', nl: 'Deal verloren', de: 'Deal verloren', fr: 'Affaire perdue' },
  'note.created': { en: 'Note added', nl: 'Notitie toegevoegd', de: 'Notiz hinzugefügt', fr: 'Note ajoutée' },
  'note.updated': { en: 'Note changed', nl: 'Notitie gewijzigd', de: 'Notiz geändert', fr: 'Note modifiée' },
  'note.deleted': { en: 'Note deleted', nl: 'Notitie verwijderd', de: 'Notiz gelöscht', fr: 'Note supprimée' },
};

export async function listTimeline(tx: Tx, companyId: string, customerId: string, scopes: string[], page: PageRequest) {
  const plan = keyset(page, { created_at: events.createdAt }, events.id);
  const rows = await tx
    .select()
    .from(events)
    .where(
      and(
        eq(events.companyId, companyId),
        eq(events.customerId, customerId),
        inArray(events.scope, scopes),
        plan.where,
      ),
    )
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  const serialize = (row: EventRow, language: Language) => {
    const object = (row.data as { object?: { object?: string; id?: string } }).object ?? {};
    return {
      object: 'timeline_entry' as const,
      id: row.id,
      type: row.type,
      occurred_at: row.createdAt.toISOString(),
      summary: SUMMARIES[row.type]?.[language] ?? row.type,
      subject: { object: object.object ?? 'unknown', id: object.id ?? '' },
    };
  };
  return { rows, plan, serialize };
}
