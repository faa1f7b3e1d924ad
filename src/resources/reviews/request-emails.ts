// The review-request email in the request's language, with the review page's link and an unsubscribe link that
// works without a key (the List-Unsubscribe header carries it too, with one-click unsubscribe, RFC 8058).

import { fill } from '../../domain/locale-format.ts';
import { salutation } from '../../domain/salutation.ts';
import type { Language, Texts } from '../../languages.ts';

const SUBJECT: Texts = {
  en: 'How did we do? Share your experience with {shop}',
  nl: 'Hoe hebben we het gedaan? Deel uw ervaring met {shop}',
  de: 'Wie waren wir? Teilen Sie Ihre Erfahrung mit {shop}',
  fr: 'Votre avis compte : partagez votre expérience avec {shop}',
};
const BODY: Texts = {
  en: '{salutation}\n\nThank you for choosing {shop}. Would you tell us how it went? It takes a minute:\n{url}\n\nKind regards,\n{shop}\n\nNo more review requests from {shop}? Unsubscribe: {unsubscribe}',
  nl: '{salutation}\n\nBedankt dat u voor {shop} hebt gekozen. Wilt u ons laten weten hoe het ging? Het kost een minuut:\n{url}\n\nMet vriendelijke groet,\n{shop}\n\nGeen reviewverzoeken meer van {shop}? Afmelden: {unsubscribe}',
  de: '{salutation}\n\ndanke, dass Sie sich für {shop} entschieden haben. Würden Sie uns erzählen, wie es war? Es dauert eine Minute:\n{url}\n\nMit freundlichen Grüßen\n{shop}\n\nKeine Bewertungsanfragen mehr von {shop}? Abmelden: {unsubscribe}',
  fr: '{salutation}\n\nMerci d’avoir choisi {shop}. Nous direz-vous comment cela s’est passé ? Cela prend une minute :\n{url}\n\nCordialement,\n{shop}\n\nPlus de demandes d’avis de {shop} ? Se désinscrire : {unsubscribe}',
};

export const unsubscribeUrl = (pageUrl: string) => `${pageUrl}/unsubscribe`;

export function reviewRequestEmail(input: { language: Language; name: string | null; shop: string; url: string }) {
  const unsubscribe = unsubscribeUrl(input.url);
  const values = { salutation: salutation(input.name, input.language), shop: input.shop, url: input.url, unsubscribe };
  return {
    subject: fill(SUBJECT[input.language], values),
    text: fill(BODY[input.language], values),
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
