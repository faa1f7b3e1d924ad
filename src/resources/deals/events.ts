import type { EventDeclarations } from '../../events/catalogue.ts';

export const dealEvents = {
  'deal.created': {
    readScopes: ['deals.read'],
    summary: { en: 'Deal created', nl: 'Deal aangemaakt', de: 'Deal angelegt', fr: 'Affaire créée' },
  },
  'deal.updated': {
    readScopes: ['deals.read'],
    summary: { en: 'Deal changed', nl: 'Deal gewijzigd', de: 'Deal geändert', fr: 'Affaire modifiée' },
  },
  'deal.stage_changed': {
    readScopes: ['deals.read'],
    summary: { en: 'Deal moved', nl: 'Deal verplaatst', de: 'Deal verschoben', fr: 'Affaire déplacée' },
  },
  'deal.won': {
    readScopes: ['deals.read'],
    summary: { en: 'Deal won', nl: 'Deal gewonnen', de: 'Deal gewonnen', fr: 'Affaire gagnée' },
  },
  'deal.lost': {
    readScopes: ['deals.read'],
    summary: { en: 'Deal lost', nl: 'Deal verloren', de: 'Deal verloren', fr: 'Affaire perdue' },
  },
} as const satisfies EventDeclarations;
