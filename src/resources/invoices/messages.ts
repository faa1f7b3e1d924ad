// The problem texts of invoices, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/messages.ts';

export const invoiceMessages = defineMessages({
  'invoice.not_found': {
    en: 'No invoice with this id exists.',
    nl: 'Er bestaat geen factuur met dit id.',
    de: 'Es gibt keine Rechnung mit dieser ID.',
    fr: 'Aucune facture n’a cet identifiant.',
  },
  'invoice.not_draft': {
    en: 'Only a draft invoice can be changed or deleted; this invoice is {status}.',
    nl: 'Alleen een conceptfactuur kan worden gewijzigd of verwijderd; deze factuur heeft de status {status}.',
    de: 'Nur ein Rechnungsentwurf kann geändert oder gelöscht werden; diese Rechnung hat den Status {status}.',
    fr: 'Seule une facture brouillon peut être modifiée ou supprimée ; cette facture a le statut {status}.',
  },
  'invoice.cannot_send': {
    en: 'An invoice that is {status} cannot be sent.',
    nl: 'Een factuur met de status {status} kan niet worden verstuurd.',
    de: 'Eine Rechnung mit dem Status {status} kann nicht gesendet werden.',
    fr: 'Une facture au statut {status} ne peut pas être envoyée.',
  },
  'invoice.cannot_cancel': {
    en: 'An invoice that is {status} cannot be cancelled; refund its payments first.',
    nl: 'Een factuur met de status {status} kan niet worden geannuleerd; betaal eerst de betalingen terug.',
    de: 'Eine Rechnung mit dem Status {status} kann nicht storniert werden; erstatten Sie zuerst die Zahlungen.',
    fr: 'Une facture au statut {status} ne peut pas être annulée ; remboursez d’abord ses paiements.',
  },
  'invoice.cannot_pay': {
    en: 'A payment cannot be recorded on an invoice that is {status}.',
    nl: 'Op een factuur met de status {status} kan geen betaling worden geregistreerd.',
    de: 'Für eine Rechnung mit dem Status {status} kann keine Zahlung erfasst werden.',
    fr: 'Aucun paiement ne peut être enregistré sur une facture au statut {status}.',
  },
  'invoice.cannot_refund': {
    en: 'A refund needs payments to pay back; this invoice is {status}.',
    nl: 'Een terugbetaling vraagt om betalingen om terug te betalen; deze factuur heeft de status {status}.',
    de: 'Eine Erstattung setzt Zahlungen voraus; diese Rechnung hat den Status {status}.',
    fr: 'Un remboursement suppose des paiements à rembourser ; cette facture a le statut {status}.',
  },
  'invoice.payment_above_due': {
    en: 'A payment may not exceed the amount due ({max}).',
    nl: 'Een betaling mag niet hoger zijn dan het openstaande bedrag ({max}).',
    de: 'Eine Zahlung darf den offenen Betrag ({max}) nicht übersteigen.',
    fr: 'Un paiement ne peut pas dépasser le montant dû ({max}).',
  },
  'invoice.refund_above_paid': {
    en: 'A refund may not exceed the amount paid ({max}).',
    nl: 'Een terugbetaling mag niet hoger zijn dan het betaalde bedrag ({max}).',
    de: 'Eine Erstattung darf den gezahlten Betrag ({max}) nicht übersteigen.',
    fr: 'Un remboursement ne peut pas dépasser le montant payé ({max}).',
  },
  'invoice.full_not_due': {
    en: 'A full payment must equal the amount due ({due}).',
    nl: 'Een volledige betaling moet gelijk zijn aan het openstaande bedrag ({due}).',
    de: 'Eine vollständige Zahlung muss dem offenen Betrag ({due}) entsprechen.',
    fr: 'Un paiement intégral doit être égal au montant dû ({due}).',
  },
  'invoice.paid_in_future': {
    en: 'May not lie in the future.',
    nl: 'Mag niet in de toekomst liggen.',
    de: 'Darf nicht in der Zukunft liegen.',
    fr: 'Ne peut pas se situer dans le futur.',
  },
  'invoice.items_required': {
    en: 'Required, unless the invoice is a term invoice (term_percentage).',
    nl: 'Verplicht, tenzij de factuur een termijnfactuur is (term_percentage).',
    de: 'Pflichtfeld, außer die Rechnung ist eine Abschlagsrechnung (term_percentage).',
    fr: 'Obligatoire, sauf si la facture est une facture d’acompte (term_percentage).',
  },
  'invoice.term_items': {
    en: 'The lines of a term invoice are calculated from its quote; send no items.',
    nl: 'De regels van een termijnfactuur worden uit de offerte berekend; stuur geen items mee.',
    de: 'Die Positionen einer Abschlagsrechnung werden aus dem Angebot berechnet; senden Sie keine items.',
    fr: 'Les lignes d’une facture d’acompte sont calculées à partir du devis ; n’envoyez pas d’items.',
  },
  'invoice.term_discount': {
    en: 'A term invoice takes the discount of its quote; send no discount of its own.',
    nl: 'Een termijnfactuur neemt de korting van de offerte over; stuur geen eigen korting mee.',
    de: 'Eine Abschlagsrechnung übernimmt den Rabatt des Angebots; senden Sie keinen eigenen Rabatt.',
    fr: 'Une facture d’acompte reprend la remise du devis ; n’envoyez pas de remise propre.',
  },
  'invoice.term_needs_quote': {
    en: 'A term invoice needs the quote it bills a part of (quote_id).',
    nl: 'Een termijnfactuur heeft de offerte nodig waarvan zij een deel factureert (quote_id).',
    de: 'Eine Abschlagsrechnung braucht das Angebot, von dem sie einen Teil berechnet (quote_id).',
    fr: 'Une facture d’acompte a besoin du devis dont elle facture une partie (quote_id).',
  },
  'invoice.term_quote_state': {
    en: 'A term invoice needs an accepted quote; this quote is {status}.',
    nl: 'Een termijnfactuur vraagt om een geaccepteerde offerte; deze offerte heeft de status {status}.',
    de: 'Eine Abschlagsrechnung setzt ein angenommenes Angebot voraus; dieses Angebot hat den Status {status}.',
    fr: 'Une facture d’acompte suppose un devis accepté ; ce devis a le statut {status}.',
  },
  'invoice.term_above_rest': {
    en: 'The term invoices of a quote may bill at most 100 % of it; {left} % is left.',
    nl: 'De termijnfacturen van een offerte mogen samen hoogstens 100 % ervan factureren; er blijft {left} % over.',
    de: 'Die Abschlagsrechnungen eines Angebots dürfen zusammen höchstens 100 % davon berechnen; es bleiben {left} %.',
    fr: 'Les factures d’acompte d’un devis peuvent en facturer au plus 100 % ensemble ; il reste {left} %.',
  },
  'invoice.term_fixed': {
    en: 'The lines, quote and discount of a term invoice follow from its quote and percentage; create a new term invoice instead.',
    nl: 'De regels, offerte en korting van een termijnfactuur volgen uit de offerte en het percentage; maak in plaats daarvan een nieuwe termijnfactuur.',
    de: 'Positionen, Angebot und Rabatt einer Abschlagsrechnung ergeben sich aus Angebot und Prozentsatz; legen Sie stattdessen eine neue Abschlagsrechnung an.',
    fr: 'Les lignes, le devis et la remise d’une facture d’acompte découlent du devis et du pourcentage ; créez plutôt une nouvelle facture d’acompte.',
  },
} as const);
