// The words of the online quote and invoice in the four languages (the PDF's labels, src/pdf/labels.ts, name the
// columns and totals, so the page and the PDF say the same). `{name}` marks a value filled in at run time, always
// formatted for the language first (src/domain/locale-format.ts).
import { fill } from '../../domain/locale-format.ts';
import type { Language, Texts } from '../../languages.ts';

export const DOCUMENT_PAGE_TEXTS = {
  from: { en: 'From {company}', nl: 'Van {company}', de: 'Von {company}', fr: 'De {company}' },
  downloadPdf: {
    en: 'Download the PDF',
    nl: 'De pdf downloaden',
    de: 'PDF herunterladen',
    fr: 'Télécharger le PDF',
  },
  attachments: { en: 'Attachments', nl: 'Bijlagen', de: 'Anhänge', fr: 'Pièces jointes' },
  answerHeading: { en: 'Your answer', nl: 'Uw antwoord', de: 'Ihre Antwort', fr: 'Votre réponse' },
  accept: {
    en: 'Accept the quote',
    nl: 'Offerte accepteren',
    de: 'Angebot annehmen',
    fr: 'Accepter le devis',
  },
  acceptHint: {
    en: 'By accepting, you agree to the quote of {total} and its terms.',
    nl: 'Door te accepteren gaat u akkoord met de offerte van {total} en de voorwaarden ervan.',
    de: 'Mit der Annahme stimmen Sie dem Angebot über {total} und seinen Bedingungen zu.',
    fr: 'En acceptant, vous approuvez le devis d’un montant de {total} et ses conditions.',
  },
  reject: { en: 'Decline the quote', nl: 'Offerte afwijzen', de: 'Angebot ablehnen', fr: 'Refuser le devis' },
  reason: {
    en: 'Reason for declining (optional)',
    nl: 'Reden van afwijzing (optioneel)',
    de: 'Grund der Ablehnung (optional)',
    fr: 'Motif du refus (facultatif)',
  },
  accepted: {
    en: 'You accepted this quote on {date}. Thank you, {company} will be in touch.',
    nl: 'U heeft deze offerte op {date} geaccepteerd. Dank u wel, {company} neemt contact met u op.',
    de: 'Sie haben dieses Angebot am {date} angenommen. Vielen Dank, {company} meldet sich bei Ihnen.',
    fr: 'Vous avez accepté ce devis le {date}. Merci, {company} vous contactera.',
  },
  rejected: {
    en: 'You declined this quote on {date}.',
    nl: 'U heeft deze offerte op {date} afgewezen.',
    de: 'Sie haben dieses Angebot am {date} abgelehnt.',
    fr: 'Vous avez refusé ce devis le {date}.',
  },
  expired: {
    en: 'This quote expired on {date} and can no longer be accepted online. Please contact {company}.',
    nl: 'Deze offerte is op {date} verlopen en kan niet meer online worden geaccepteerd. Neem contact op met {company}.',
    de: 'Dieses Angebot ist am {date} abgelaufen und kann nicht mehr online angenommen werden. Bitte wenden Sie sich an {company}.',
    fr: 'Ce devis a expiré le {date} et ne peut plus être accepté en ligne. Veuillez contacter {company}.',
  },
  payHeading: { en: 'How to pay', nl: 'Zo betaalt u', de: 'So bezahlen Sie', fr: 'Comment payer' },
  payNow: { en: 'Pay now', nl: 'Nu betalen', de: 'Jetzt bezahlen', fr: 'Payer maintenant' },
  payOnline: {
    en: 'Pay {amount} online now.',
    nl: 'Betaal {amount} nu online.',
    de: 'Bezahlen Sie {amount} jetzt online.',
    fr: 'Payez {amount} en ligne dès maintenant.',
  },
  orTransfer: {
    en: 'Or transfer the amount:',
    nl: 'Of maak het bedrag over:',
    de: 'Oder überweisen Sie den Betrag:',
    fr: 'Ou virez le montant\u00A0:',
  },
  payUnavailableTitle: {
    en: 'Online payment is not available right now',
    nl: 'Online betalen is nu niet mogelijk',
    de: 'Online-Zahlung ist gerade nicht möglich',
    fr: 'Le paiement en ligne est momentanément indisponible',
  },
  payUnavailable: {
    en: 'Nothing was charged. Please try again in a few minutes, or pay by bank transfer as the invoice describes.',
    nl: 'Er is niets afgeschreven. Probeer het over een paar minuten opnieuw, of betaal per bankoverschrijving zoals op de factuur staat.',
    de: 'Es wurde nichts abgebucht. Bitte versuchen Sie es in ein paar Minuten erneut oder bezahlen Sie per Überweisung, wie auf der Rechnung angegeben.',
    fr: 'Rien n’a été débité. Veuillez réessayer dans quelques minutes, ou payer par virement comme l’indique la facture.',
  },
  openInvoice: { en: 'Open the invoice', nl: 'Factuur openen', de: 'Rechnung öffnen', fr: 'Ouvrir la facture' },
  bic: { en: 'BIC', nl: 'BIC', de: 'BIC', fr: 'BIC' },
  payee: { en: 'Payee', nl: 'Begunstigde', de: 'Empfänger', fr: 'Bénéficiaire' },
  paymentReference: {
    en: 'Payment reference',
    nl: 'Betalingskenmerk',
    de: 'Verwendungszweck',
    fr: 'Référence du paiement',
  },
  noBankDetails: {
    en: 'Please contact {company} for the bank details.',
    nl: 'Neem contact op met {company} voor de bankgegevens.',
    de: 'Bitte fragen Sie {company} nach der Bankverbindung.',
    fr: 'Veuillez contacter {company} pour obtenir les coordonnées bancaires.',
  },
  language: { en: 'Language', nl: 'Taal', de: 'Sprache', fr: 'Langue' },
  unknownTitle: {
    en: 'Link not found',
    nl: 'Link niet gevonden',
    de: 'Link nicht gefunden',
    fr: 'Lien introuvable',
  },
  unknown: {
    en: 'This link is not valid, or the document it named no longer exists. Please use the link from your email, or contact the company that sent it.',
    nl: 'Deze link is niet geldig, of het document bestaat niet meer. Gebruik de link uit uw e-mail of neem contact op met het bedrijf dat hem stuurde.',
    de: 'Dieser Link ist ungültig, oder das Dokument existiert nicht mehr. Bitte verwenden Sie den Link aus Ihrer E-Mail oder wenden Sie sich an das Unternehmen, das ihn gesendet hat.',
    fr: 'Ce lien n’est pas valide, ou le document n’existe plus. Utilisez le lien de votre e-mail ou contactez l’entreprise qui vous l’a envoyé.',
  },
  cancelledTitle: {
    en: 'Invoice cancelled',
    nl: 'Factuur geannuleerd',
    de: 'Rechnung storniert',
    fr: 'Facture annulée',
  },
  forbiddenTitle: {
    en: 'This form has expired',
    nl: 'Dit formulier is verlopen',
    de: 'Dieses Formular ist abgelaufen',
    fr: 'Ce formulaire a expiré',
  },
  forbidden: {
    en: 'For your security your answer was not recorded. Please open the quote again and answer there.',
    nl: 'Voor uw veiligheid is uw antwoord niet verwerkt. Open de offerte opnieuw en antwoord daar.',
    de: 'Zu Ihrer Sicherheit wurde Ihre Antwort nicht gespeichert. Bitte öffnen Sie das Angebot erneut und antworten Sie dort.',
    fr: 'Pour votre sécurité, votre réponse n’a pas été enregistrée. Veuillez rouvrir le devis et répondre depuis la page.',
  },
  reasonTitle: {
    en: 'Your reason could not be recorded',
    nl: 'Uw reden kon niet worden vastgelegd',
    de: 'Ihr Grund konnte nicht gespeichert werden',
    fr: 'Votre motif n’a pas pu être enregistré',
  },
  reasonRefused: {
    en: 'The reason may hold at most {max} characters and no control character U+0000. The quote was not declined; please open it again and answer there.',
    nl: 'De reden mag hoogstens {max} tekens bevatten en geen stuurteken U+0000. De offerte is niet afgewezen; open haar opnieuw en antwoord daar.',
    de: 'Der Grund darf höchstens {max} Zeichen und kein Steuerzeichen U+0000 enthalten. Das Angebot wurde nicht abgelehnt; bitte öffnen Sie es erneut und antworten Sie dort.',
    fr: 'Le motif peut contenir au plus {max} caractères et aucun caractère de contrôle U+0000. Le devis n’a pas été refusé ; veuillez le rouvrir et répondre depuis la page.',
  },
  reopen: { en: 'Open the quote', nl: 'Offerte openen', de: 'Angebot öffnen', fr: 'Ouvrir le devis' },
  decidedTitle: {
    en: 'The quote was already answered',
    nl: 'De offerte is al beantwoord',
    de: 'Das Angebot wurde bereits beantwortet',
    fr: 'Le devis a déjà reçu une réponse',
  },
  decided: {
    en: 'Your answer was not recorded: the quote has already been accepted or declined.',
    nl: 'Uw antwoord is niet verwerkt: de offerte is al geaccepteerd of afgewezen.',
    de: 'Ihre Antwort wurde nicht gespeichert: Das Angebot wurde bereits angenommen oder abgelehnt.',
    fr: 'Votre réponse n’a pas été enregistrée\u00A0: le devis a déjà été accepté ou refusé.',
  },
  tooManyTitle: {
    en: 'Too many requests',
    nl: 'Te veel verzoeken',
    de: 'Zu viele Anfragen',
    fr: 'Trop de requêtes',
  },
  tooMany: {
    en: 'Please wait a minute and try again.',
    nl: 'Wacht een minuut en probeer het dan opnieuw.',
    de: 'Bitte warten Sie eine Minute und versuchen Sie es dann erneut.',
    fr: 'Veuillez patienter une minute, puis réessayer.',
  },
  tooManyRenders: {
    en: 'This PDF has been asked for too often in a short time. Please try again in a few minutes.',
    nl: 'Deze pdf is in korte tijd te vaak opgevraagd. Probeer het over een paar minuten opnieuw.',
    de: 'Dieses PDF wurde in kurzer Zeit zu oft angefordert. Bitte versuchen Sie es in ein paar Minuten erneut.',
    fr: 'Ce PDF a été demandé trop souvent en peu de temps. Veuillez réessayer dans quelques minutes.',
  },
} as const satisfies Record<string, Texts>;

export type DocumentPageText = keyof typeof DOCUMENT_PAGE_TEXTS;

/** A text in the language with its values filled in (values are formatted already). */
export const say = (key: DocumentPageText, language: Language, values: Record<string, string> = {}) =>
  fill(DOCUMENT_PAGE_TEXTS[key][language], values);
