import type { EventDeclarations } from '../../events/catalogue.ts';

export const reviewEvents = {
  'review.created': {
    readScopes: ['reviews.read'],
    summary: { en: 'Review written', nl: 'Review geschreven', de: 'Bewertung geschrieben', fr: 'Avis rédigé' },
  },
  'review_request.completed': {
    readScopes: ['reviews.read'],
    summary: {
      en: 'Review request answered',
      nl: 'Reviewverzoek beantwoord',
      de: 'Bewertungsanfrage beantwortet',
      fr: 'Demande d’avis répondue',
    },
  },
} as const satisfies EventDeclarations;
