import type { EventDeclarations } from '../../events/catalogue.ts';

// A note's events are seen with its parent's read scope (customers.read or deals.read), so either will do.
export const noteEvents = {
  'note.created': {
    readScopes: ['customers.read', 'deals.read'],
    summary: { en: 'Note added', nl: 'Notitie toegevoegd', de: 'Notiz hinzugefügt', fr: 'Note ajoutée' },
  },
  'note.updated': {
    readScopes: ['customers.read', 'deals.read'],
    summary: { en: 'Note changed', nl: 'Notitie gewijzigd', de: 'Notiz geändert', fr: 'Note modifiée' },
  },
  'note.deleted': {
    readScopes: ['customers.read', 'deals.read'],
    summary: { en: 'Note deleted', nl: 'Notitie verwijderd', de: 'Notiz gelöscht', fr: 'Note supprimée' },
  },
} as const satisfies EventDeclarations;
