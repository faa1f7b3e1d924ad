// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const reviewMessages = defineMessages({
  'review.not_found': {
    en: 'No review with this id exists.',
    nl: 'Er bestaat geen review met dit id.',
    de: 'Es gibt keine Bewertung mit dieser ID.',
    fr: 'Aucun avis n’a cet identifiant.',
  },
  'review_widget.not_found': {
    en: 'No company has this widget id.',
    nl: 'Geen bedrijf heeft dit widget-id.',
    de: 'Kein Unternehmen hat diese Widget-ID.',
    fr: 'Aucune entreprise n’a cet identifiant de widget.',
  },
  'review_request.not_found': {
    en: 'No review request with this id exists.',
    nl: 'Er bestaat geen reviewverzoek met dit id.',
    de: 'Es gibt keine Bewertungsanfrage mit dieser ID.',
    fr: 'Aucune demande d’avis n’a cet identifiant.',
  },
  'review_request.open_request_exists': {
    en: 'Rule "one open request": this recipient already has an open review request (scheduled, sent or opened).',
    nl: 'Regel "één open verzoek": deze ontvanger heeft al een open reviewverzoek (gepland, verstuurd of geopend).',
    de: 'Regel „eine offene Anfrage“: Dieser Empfänger hat bereits eine offene Bewertungsanfrage (geplant, gesendet oder geöffnet).',
    fr: 'Règle « une demande ouverte » : ce destinataire a déjà une demande d’avis ouverte (planifiée, envoyée ou ouverte).',
  },
  'review_request.cooldown': {
    en: 'Rule "cooldown": this recipient was asked for a review less than {days|one:# day|other:# days} ago (on {date}).',
    nl: 'Regel "wachttijd": deze ontvanger is minder dan {days|one:# dag|other:# dagen} geleden om een review gevraagd (op {date}).',
    de: 'Regel „Wartezeit“: Dieser Empfänger wurde vor weniger als {days|one:# Tag|other:# Tagen} um eine Bewertung gebeten (am {date}).',
    fr: 'Règle « délai » : ce destinataire a été sollicité il y a moins de {days|one:# jour|other:# jours} (le {date}).',
  },
  'review_request.unsubscribed': {
    en: 'Rule "unsubscribed": this recipient opted out of emails or review requests and gets none.',
    nl: 'Regel "afgemeld": deze ontvanger heeft zich afgemeld voor e-mails of reviewverzoeken en krijgt er geen.',
    de: 'Regel „abgemeldet“: Dieser Empfänger hat sich von E-Mails oder Bewertungsanfragen abgemeldet und erhält keine.',
    fr: 'Règle « désinscrit » : ce destinataire s’est désinscrit des e-mails ou des demandes d’avis et n’en reçoit pas.',
  },
  'review_request.whatsapp_no_template': {
    en: 'Rule "WhatsApp template": WhatsApp lets a business start a conversation only with an approved template, and the company has set none for review requests (CLI company channels --whatsapp-review-template); this number never wrote to the company on WhatsApp. Use email or link, or set the template.',
    nl: 'Regel "WhatsApp-sjabloon": WhatsApp laat een bedrijf een gesprek alleen beginnen met een goedgekeurd sjabloon, en het bedrijf heeft er geen ingesteld voor reviewverzoeken (CLI company channels --whatsapp-review-template); dit nummer heeft het bedrijf nooit via WhatsApp geschreven. Gebruik email of link, of stel het sjabloon in.',
    de: 'Regel „WhatsApp-Vorlage“: WhatsApp lässt ein Unternehmen ein Gespräch nur mit einer genehmigten Vorlage beginnen, und das Unternehmen hat keine für Bewertungsanfragen festgelegt (CLI company channels --whatsapp-review-template); diese Nummer hat dem Unternehmen nie über WhatsApp geschrieben. Nutzen Sie email oder link, oder legen Sie die Vorlage fest.',
    fr: 'Règle « modèle WhatsApp » : WhatsApp ne permet à une entreprise d’engager une conversation qu’avec un modèle approuvé, et l’entreprise n’en a défini aucun pour les demandes d’avis (CLI company channels --whatsapp-review-template) ; ce numéro n’a jamais écrit à l’entreprise sur WhatsApp. Utilisez email ou link, ou définissez le modèle.',
  },
  'review_request.whatsapp_no_template_window_closed': {
    en: 'Rule "WhatsApp template": the company has no approved template for review requests (CLI company channels --whatsapp-review-template), and a free-form message is allowed only within 24 hours of the customer\'s last WhatsApp message ({last}). Use email or link, or set the template.',
    nl: 'Regel "WhatsApp-sjabloon": het bedrijf heeft geen goedgekeurd sjabloon voor reviewverzoeken (CLI company channels --whatsapp-review-template), en een vrij bericht mag alleen binnen 24 uur na het laatste WhatsApp-bericht van de klant ({last}). Gebruik email of link, of stel het sjabloon in.',
    de: 'Regel „WhatsApp-Vorlage“: Das Unternehmen hat keine genehmigte Vorlage für Bewertungsanfragen (CLI company channels --whatsapp-review-template), und eine freie Nachricht ist nur innerhalb von 24 Stunden nach der letzten WhatsApp-Nachricht des Kunden ({last}) erlaubt. Nutzen Sie email oder link, oder legen Sie die Vorlage fest.',
    fr: 'Règle « modèle WhatsApp » : l’entreprise n’a pas de modèle approuvé pour les demandes d’avis (CLI company channels --whatsapp-review-template), et un message libre n’est permis que dans les 24 heures suivant le dernier message WhatsApp du client ({last}). Utilisez email ou link, ou définissez le modèle.',
  },
  'review_request.whatsapp_refused': {
    en: 'WhatsApp refused the message: {reason}',
    nl: 'WhatsApp weigerde het bericht: {reason}',
    de: 'WhatsApp hat die Nachricht abgelehnt: {reason}',
    fr: 'WhatsApp a refusé le message : {reason}',
  },
  'review_request.whatsapp_feature': {
    en: "Review requests over WhatsApp need the company's feature whatsapp.",
    nl: 'Reviewverzoeken via WhatsApp vereisen de functie whatsapp van het bedrijf.',
    de: 'Bewertungsanfragen über WhatsApp erfordern die Funktion whatsapp des Unternehmens.',
    fr: 'Les demandes d’avis par WhatsApp nécessitent la fonction whatsapp de l’entreprise.',
  },
  'review_request.whatsapp_unreachable': {
    en: 'WhatsApp could not be reached or failed; nothing was sent or stored. Try again later.',
    nl: 'WhatsApp was niet bereikbaar of gaf een fout; er is niets verstuurd of opgeslagen. Probeer het later opnieuw.',
    de: 'WhatsApp war nicht erreichbar oder fehlerhaft; es wurde nichts gesendet oder gespeichert. Versuchen Sie es später erneut.',
    fr: 'WhatsApp était injoignable ou en erreur ; rien n’a été envoyé ni enregistré. Réessayez plus tard.',
  },
  'review_request.whatsapp_bad_number': {
    en: 'This is not a WhatsApp number: give the phone number in international form (e.g. +31 6 1234 5678).',
    nl: 'Dit is geen WhatsApp-nummer: geef het telefoonnummer in internationale vorm (bijv. +31 6 1234 5678).',
    de: 'Dies ist keine WhatsApp-Nummer: Geben Sie die Telefonnummer im internationalen Format an (z. B. +31 6 1234 5678).',
    fr: 'Ce n’est pas un numéro WhatsApp : indiquez le numéro au format international (par ex. +31 6 1234 5678).',
  },
  'review_request.customer_unknown': {
    en: 'No customer with this id exists.',
    nl: 'Er bestaat geen klant met dit id.',
    de: 'Es gibt keinen Kunden mit dieser ID.',
    fr: 'Aucun client n’a cet identifiant.',
  },
  'review_request.outgoing_limit': {
    en: 'The company has sent {limit|one:# message|other:# messages} this hour, its limit; try again after the hour.',
    nl: 'Het bedrijf heeft dit uur {limit|one:# bericht|other:# berichten} verstuurd, zijn limiet; probeer het na dit uur opnieuw.',
    de: 'Das Unternehmen hat in dieser Stunde {limit|one:# Nachricht|other:# Nachrichten} gesendet, sein Limit; versuchen Sie es nach Ablauf der Stunde erneut.',
    fr: 'L’entreprise a envoyé {limit|one:# message|other:# messages} cette heure-ci, sa limite ; réessayez après cette heure.',
  },
} as const);
