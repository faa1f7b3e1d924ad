// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/messages.ts';

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
    en: 'Rule "cooldown": this recipient was asked for a review less than {days} days ago (on {date}).',
    nl: 'Regel "wachttijd": deze ontvanger is minder dan {days} dagen geleden om een review gevraagd (op {date}).',
    de: 'Regel „Wartezeit“: Dieser Empfänger wurde vor weniger als {days} Tagen um eine Bewertung gebeten (am {date}).',
    fr: 'Règle « délai » : ce destinataire a été sollicité il y a moins de {days} jours (le {date}).',
  },
  'review_request.unsubscribed': {
    en: 'Rule "unsubscribed": this recipient opted out of emails or review requests and gets none.',
    nl: 'Regel "afgemeld": deze ontvanger heeft zich afgemeld voor e-mails of reviewverzoeken en krijgt er geen.',
    de: 'Regel „abgemeldet“: Dieser Empfänger hat sich von E-Mails oder Bewertungsanfragen abgemeldet und erhält keine.',
    fr: 'Règle « désinscrit » : ce destinataire s’est désinscrit des e-mails ou des demandes d’avis et n’en reçoit pas.',
  },
  'review_request.whatsapp_unavailable': {
    en: 'Channel whatsapp is not available for review requests on this installation yet; use email or link.',
    nl: 'Kanaal whatsapp is op deze installatie nog niet beschikbaar voor reviewverzoeken; gebruik email of link.',
    de: 'Der Kanal whatsapp ist für Bewertungsanfragen auf dieser Installation noch nicht verfügbar; nutzen Sie email oder link.',
    fr: 'Le canal whatsapp n’est pas encore disponible pour les demandes d’avis sur cette installation ; utilisez email ou link.',
  },
  'review_request.customer_unknown': {
    en: 'No customer with this id exists.',
    nl: 'Er bestaat geen klant met dit id.',
    de: 'Es gibt keinen Kunden mit dieser ID.',
    fr: 'Aucun client n’a cet identifiant.',
  },
  'review_request.outgoing_limit': {
    en: 'The company sent its {limit} messages of this hour; try again after the hour.',
    nl: 'Het bedrijf heeft zijn {limit} berichten van dit uur verstuurd; probeer het na dit uur opnieuw.',
    de: 'Das Unternehmen hat seine {limit} Nachrichten dieser Stunde gesendet; versuchen Sie es nach Ablauf der Stunde erneut.',
    fr: 'L’entreprise a envoyé ses {limit} messages de cette heure ; réessayez après cette heure.',
  },
} as const);
