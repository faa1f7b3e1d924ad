// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

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
  'deal.external_ref_taken': {
    en: 'Another deal of the company has this external reference.',
    nl: 'Een andere deal van het bedrijf heeft deze externe referentie.',
    de: 'Ein anderer Deal des Unternehmens hat diese externe Referenz.',
    fr: 'Une autre affaire de l’entreprise a cette référence externe.',
  },
  'deal.unknown_reference': {
    en: 'No deal of the company has this id.',
    nl: 'Het bedrijf heeft geen deal met dit id.',
    de: 'Das Unternehmen hat keinen Deal mit dieser ID.',
    fr: 'Aucune affaire de l’entreprise n’a cet identifiant.',
  },
  'deal.duplicate_in_batch': {
    en: 'An earlier item of this batch names the same deal or external reference.',
    nl: 'Een eerder item van deze batch noemt dezelfde deal of externe referentie.',
    de: 'Ein früheres Element dieses Stapels nennt denselben Deal oder dieselbe externe Referenz.',
    fr: 'Un élément précédent de ce lot désigne la même affaire ou la même référence externe.',
  },
  'deal.customer_fixed': {
    en: 'A deal keeps its customer; send the deal’s own customer_id or leave it out.',
    nl: 'Een deal houdt zijn klant; stuur de eigen customer_id van de deal mee of laat die weg.',
    de: 'Ein Deal behält seinen Kunden; senden Sie die eigene customer_id des Deals oder lassen Sie sie weg.',
    fr: 'Une affaire garde son client ; envoyez le customer_id de l’affaire ou omettez-le.',
  },
  'deal.stage_by_move': {
    en: 'An existing deal changes stage with Move a deal, Win a deal or Lose a deal; send its own stage_id or leave it out.',
    nl: 'Een bestaande deal wisselt van fase met Deal verplaatsen, Deal winnen of Deal verliezen; stuur zijn eigen stage_id mee of laat die weg.',
    de: 'Ein bestehender Deal wechselt die Phase mit Deal verschieben, Deal gewinnen oder Deal verlieren; senden Sie seine eigene stage_id oder lassen Sie sie weg.',
    fr: 'Une affaire existante change d’étape avec Déplacer, Gagner ou Perdre une affaire ; envoyez son propre stage_id ou omettez-le.',
  },
} as const);
