// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/messages.ts';

export const dealMessages = defineMessages({
  'deal.not_found': {
    en: 'No deal with this id exists.',
    nl: 'Er bestaat geen deal met dit id.',
    de: 'Es gibt keinen Deal mit dieser ID.',
    fr: 'Aucune affaire n’a cet identifiant.',
  },
  'deal.open_deal_exists': {
    en: 'This customer already has an open deal (archived ones count too); win or lose it first.',
    nl: 'Deze klant heeft al een open deal (ook een gearchiveerde telt mee); win of verlies die eerst.',
    de: 'Dieser Kunde hat bereits einen offenen Deal (auch ein archivierter zählt); gewinnen oder verlieren Sie ihn zuerst.',
    fr: 'Ce client a déjà une affaire ouverte (une affaire archivée compte aussi) ; gagnez-la ou perdez-la d’abord.',
  },
  'deal.archived': {
    en: 'This deal is archived; unarchive it first.',
    nl: 'Deze deal is gearchiveerd; haal hem eerst uit het archief.',
    de: 'Dieser Deal ist archiviert; holen Sie ihn zuerst aus dem Archiv.',
    fr: 'Cette affaire est archivée ; désarchivez-la d’abord.',
  },
  'deal.already_archived': {
    en: 'This deal is already archived.',
    nl: 'Deze deal is al gearchiveerd.',
    de: 'Dieser Deal ist bereits archiviert.',
    fr: 'Cette affaire est déjà archivée.',
  },
  'deal.not_archived': {
    en: 'This deal is not archived.',
    nl: 'Deze deal is niet gearchiveerd.',
    de: 'Dieser Deal ist nicht archiviert.',
    fr: 'Cette affaire n’est pas archivée.',
  },
  'deal.win_not_open': {
    en: 'Only an open deal can be won; this deal is {status}.',
    nl: 'Alleen een open deal kan worden gewonnen; deze deal heeft de status {status}.',
    de: 'Nur ein offener Deal kann gewonnen werden; dieser Deal hat den Status {status}.',
    fr: 'Seule une affaire ouverte peut être gagnée ; cette affaire a le statut {status}.',
  },
  'deal.lose_not_open': {
    en: 'Only an open deal can be lost; this deal is {status}.',
    nl: 'Alleen een open deal kan worden verloren; deze deal heeft de status {status}.',
    de: 'Nur ein offener Deal kann verloren werden; dieser Deal hat den Status {status}.',
    fr: 'Seule une affaire ouverte peut être perdue ; cette affaire a le statut {status}.',
  },
} as const);
