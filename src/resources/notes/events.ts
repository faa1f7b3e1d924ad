import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('customers.read', 'deals.read');

// A note's events are seen with its parent's read scope (customers.read or deals.read), so either will do.
export const noteEvents = {
  'note.created': event({ en: 'Note added', nl: 'Notitie toegevoegd', de: 'Notiz hinzugefügt', fr: 'Note ajoutée' }),
  'note.updated': event({ en: 'Note changed', nl: 'Notitie gewijzigd', de: 'Notiz geändert', fr: 'Note modifiée' }),
  'note.deleted': event({ en: 'Note deleted', nl: 'Notitie verwijderd', de: 'Notiz gelöscht', fr: 'Note supprimée' }),
} as const satisfies EventDeclarations;
