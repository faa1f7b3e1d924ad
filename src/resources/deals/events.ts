import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('deals.read');

export const dealEvents = {
  'deal.created': event({ en: 'Deal created', nl: 'Deal aangemaakt', de: 'Deal angelegt', fr: 'Affaire créée' }),
  'deal.updated': event({ en: 'Deal changed', nl: 'Deal gewijzigd', de: 'Deal geändert', fr: 'Affaire modifiée' }),
  'deal.stage_changed': event({
    en: 'Deal moved',
    nl: 'Deal verplaatst',
    de: 'Deal verschoben',
    fr: 'Affaire déplacée',
  }),
  'deal.won': event({ en: 'Deal won', nl: 'Deal gewonnen', de: 'Deal gewonnen', fr: 'Affaire gagnée' }),
  'deal.lost': event({ en: 'Deal lost', nl: 'Deal verloren', de: 'Deal verloren', fr: 'Affaire perdue' }),
} as const satisfies EventDeclarations;
