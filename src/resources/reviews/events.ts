import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('reviews.read');

export const reviewEvents = {
  'review.created': event({
    en: 'Review written',
    nl: 'Review geschreven',
    de: 'Bewertung geschrieben',
    fr: 'Avis rédigé',
  }),
  'review_request.completed': event({
    en: 'Review request answered',
    nl: 'Reviewverzoek beantwoord',
    de: 'Bewertungsanfrage beantwortet',
    fr: 'Demande d’avis répondue',
  }),
} as const satisfies EventDeclarations;
