// The problem texts of quotes, and of what quotes and invoices share (lines, totals, dates, sending), in the four
// languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const quoteMessages = defineMessages({
  'quote.not_found': {
    en: 'No quote with this id exists.',
    nl: 'Er bestaat geen offerte met dit id.',
    de: 'Es gibt kein Angebot mit dieser ID.',
    fr: 'Aucun devis n’a cet identifiant.',
  },
  'quote.unknown_reference': {
    en: 'No quote of this customer has this id.',
    nl: 'Geen offerte van deze klant heeft dit id.',
    de: 'Kein Angebot dieses Kunden hat diese ID.',
    fr: 'Aucun devis de ce client n’a cet identifiant.',
  },
  'quote.not_draft': {
    en: 'Only a draft quote can be changed; this quote is {status}.',
    nl: 'Alleen een conceptofferte kan worden gewijzigd; deze offerte heeft de status {status}.',
    de: 'Nur ein Angebotsentwurf kann geändert werden; dieses Angebot hat den Status {status}.',
    fr: 'Seul un devis brouillon peut être modifié ; ce devis a le statut {status}.',
  },
  'quote.cannot_send': {
    en: 'A quote that is {status} cannot be sent; make a new quote.',
    nl: 'Een offerte met de status {status} kan niet worden verstuurd; maak een nieuwe offerte.',
    de: 'Ein Angebot mit dem Status {status} kann nicht gesendet werden; erstellen Sie ein neues Angebot.',
    fr: 'Un devis au statut {status} ne peut pas être envoyé ; créez un nouveau devis.',
  },
  'quote.cannot_decide': {
    en: 'Only a sent, viewed or expired quote can be accepted or rejected; this quote is {status}.',
    nl: 'Alleen een verstuurde, bekeken of verlopen offerte kan worden geaccepteerd of afgewezen; deze offerte heeft de status {status}.',
    de: 'Nur ein gesendetes, angesehenes oder abgelaufenes Angebot kann angenommen oder abgelehnt werden; dieses Angebot hat den Status {status}.',
    fr: 'Seul un devis envoyé, consulté ou expiré peut être accepté ou refusé ; ce devis a le statut {status}.',
  },
  'document.deal_unknown_reference': {
    en: 'No deal of this customer has this id.',
    nl: 'Geen deal van deze klant heeft dit id.',
    de: 'Kein Deal dieses Kunden hat diese ID.',
    fr: 'Aucune affaire de ce client n’a cet identifiant.',
  },
  'document.line_discount_above_gross': {
    en: 'A line discount may not exceed the line’s gross amount (a line with a negative amount takes none).',
    nl: 'Een regelkorting mag niet hoger zijn dan het brutobedrag van de regel (een regel met een negatief bedrag krijgt geen korting).',
    de: 'Ein Zeilenrabatt darf den Bruttobetrag der Zeile nicht übersteigen (eine Zeile mit negativem Betrag erhält keinen).',
    fr: 'Une remise de ligne ne peut pas dépasser le montant brut de la ligne (une ligne au montant négatif n’en reçoit aucune).',
  },
  'document.both_prices': {
    en: 'Send either unit_price or unit_price_incl, not both.',
    nl: 'Stuur unit_price of unit_price_incl, niet allebei.',
    de: 'Senden Sie entweder unit_price oder unit_price_incl, nicht beide.',
    fr: 'Envoyez unit_price ou unit_price_incl, pas les deux.',
  },
  'document.exemption_unknown': {
    en: 'Not a VATEX code of an exemption: use a code of the CEF VATEX list such as VATEX-EU-132-1B or VATEX-EU-143 (reverse charge, exports, intra-community supplies and supplies outside the scope of VAT are no exemptions).',
    nl: 'Geen VATEX-code van een vrijstelling: gebruik een code uit de CEF VATEX-lijst zoals VATEX-EU-132-1B of VATEX-EU-143 (verlegging, uitvoer, intracommunautaire leveringen en leveringen buiten de btw zijn geen vrijstellingen).',
    de: 'Kein VATEX-Code einer Steuerbefreiung: Verwenden Sie einen Code der CEF-VATEX-Liste wie VATEX-EU-132-1B oder VATEX-EU-143 (Reverse-Charge, Ausfuhren, innergemeinschaftliche Lieferungen und nicht steuerbare Umsätze sind keine Befreiungen).',
    fr: 'Ce n’est pas un code VATEX d’exonération : utilisez un code de la liste CEF VATEX comme VATEX-EU-132-1B ou VATEX-EU-143 (l’autoliquidation, les exportations, les livraisons intracommunautaires et les opérations hors champ ne sont pas des exonérations).',
  },
  'document.exemption_on_taxable': {
    en: 'Only a line exempt from VAT (is_taxable false) has an exemption reason.',
    nl: 'Alleen een regel die is vrijgesteld van btw (is_taxable false) heeft een vrijstellingsgrond.',
    de: 'Nur eine von der MwSt. befreite Position (is_taxable false) hat einen Befreiungsgrund.',
    fr: 'Seule une ligne exonérée de TVA (is_taxable false) a un motif d’exonération.',
  },
  'document.exemption_differs': {
    en: 'The exempt lines of one document share one exemption reason: an e-invoice has one group of exempt lines (rule BR-E-01).',
    nl: 'De vrijgestelde regels van één document delen één vrijstellingsgrond: een e-factuur heeft één groep vrijgestelde regels (regel BR-E-01).',
    de: 'Die befreiten Positionen eines Dokuments teilen einen Befreiungsgrund: Eine E-Rechnung hat eine Gruppe befreiter Positionen (Regel BR-E-01).',
    fr: 'Les lignes exonérées d’un document partagent un seul motif d’exonération : une facture électronique a un seul groupe de lignes exonérées (règle BR-E-01).',
  },
  'document.text_line_amount': {
    en: 'A text line has no amounts.',
    nl: 'Een tekstregel heeft geen bedragen.',
    de: 'Eine Textzeile hat keine Beträge.',
    fr: 'Une ligne de texte n’a pas de montants.',
  },
  'document.discount_above_subtotal': {
    en: 'The document discount may not exceed the subtotal.',
    nl: 'De documentkorting mag niet hoger zijn dan het subtotaal.',
    de: 'Der Belegrabatt darf die Zwischensumme nicht übersteigen.',
    fr: 'La remise sur le document ne peut pas dépasser le sous-total.',
  },
  'document.date_before': {
    en: 'May not be before {field}.',
    nl: 'Mag niet vóór {field} liggen.',
    de: 'Darf nicht vor {field} liegen.',
    fr: 'Ne peut pas être antérieur à {field}.',
  },
  'document.no_recipient': {
    en: 'The customer has no email address; send the document to an address given in to.',
    nl: 'De klant heeft geen e-mailadres; stuur het document naar een adres in to.',
    de: 'Der Kunde hat keine E-Mail-Adresse; senden Sie den Beleg an eine Adresse in to.',
    fr: 'Le client n’a pas d’adresse e-mail ; envoyez le document à une adresse indiquée dans to.',
  },
  'document.outgoing_limit': {
    en: 'The company has sent {limit|one:# message|other:# messages} this hour, its limit; try again later.',
    nl: 'Het bedrijf heeft dit uur {limit|one:# bericht|other:# berichten} verstuurd, zijn limiet; probeer het later opnieuw.',
    de: 'Das Unternehmen hat in dieser Stunde {limit|one:# Nachricht|other:# Nachrichten} gesendet, sein Limit; versuchen Sie es später erneut.',
    fr: 'L’entreprise a envoyé {limit|one:# message|other:# messages} cette heure-ci, sa limite ; réessayez plus tard.',
  },
} as const);
