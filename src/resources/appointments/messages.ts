// The problem texts of appointments, appointment types and free slots, in the four languages.
import { defineMessages } from '../../http/message-catalogue.ts';

export const appointmentMessages = defineMessages({
  'appointment.not_found': {
    en: 'No appointment with this id exists.',
    nl: 'Er bestaat geen afspraak met dit id.',
    de: 'Es gibt keinen Termin mit dieser ID.',
    fr: 'Aucun rendez-vous n’a cet identifiant.',
  },
  'appointment.type_unknown_reference': {
    en: 'No active appointment type has this id.',
    nl: 'Er is geen actief afspraaktype met dit id.',
    de: 'Keine aktive Terminart hat diese ID.',
    fr: 'Aucun type de rendez-vous actif n’a cet identifiant.',
  },
  'appointment.title_required': {
    en: 'A title is required when there is no appointment type.',
    nl: 'Een titel is verplicht als er geen afspraaktype is.',
    de: 'Ohne Terminart ist ein Titel erforderlich.',
    fr: 'Un titre est obligatoire en l’absence de type de rendez-vous.',
  },
  'appointment.invitation_confirmed': {
    en: 'An invitation (starts_at null) is always pending; it cannot be created as confirmed.',
    nl: 'Een uitnodiging (starts_at null) is altijd pending; ze kan niet als confirmed worden aangemaakt.',
    de: 'Eine Einladung (starts_at null) ist immer pending; sie kann nicht als confirmed angelegt werden.',
    fr: 'Une invitation (starts_at null) est toujours pending ; elle ne peut pas être créée comme confirmed.',
  },
  'appointment.invitation_end': {
    en: 'An invitation (starts_at null) has no end; leave ends_at out or send null.',
    nl: 'Een uitnodiging (starts_at null) heeft geen einde; laat ends_at weg of stuur null.',
    de: 'Eine Einladung (starts_at null) hat kein Ende; lassen Sie ends_at weg oder senden Sie null.',
    fr: 'Une invitation (starts_at null) n’a pas de fin ; omettez ends_at ou envoyez null.',
  },
  'appointment.invitation_all_day': {
    en: 'An invitation (starts_at null) cannot be all-day; give it a start first.',
    nl: 'Een uitnodiging (starts_at null) kan geen hele dag duren; geef haar eerst een begin.',
    de: 'Eine Einladung (starts_at null) kann nicht ganztägig sein; geben Sie ihr zuerst einen Beginn.',
    fr: 'Une invitation (starts_at null) ne peut pas durer toute la journée ; donnez-lui d’abord un début.',
  },
  'appointment.end_before_start': {
    en: 'The end must be after the start.',
    nl: 'Het einde moet na het begin liggen.',
    de: 'Das Ende muss nach dem Beginn liegen.',
    fr: 'La fin doit être après le début.',
  },
  'appointment.not_changeable': {
    en: 'Only a pending or confirmed appointment can be changed; this one is {status}.',
    nl: 'Alleen een afspraak die pending of confirmed is kan worden gewijzigd; deze is {status}.',
    de: 'Nur ein Termin mit dem Status pending oder confirmed kann geändert werden; dieser ist {status}.',
    fr: 'Seul un rendez-vous pending ou confirmed peut être modifié ; celui-ci est {status}.',
  },
  'appointment.confirm_not_pending': {
    en: 'Only a pending appointment can be confirmed; this one is {status}.',
    nl: 'Alleen een afspraak die pending is kan worden bevestigd; deze is {status}.',
    de: 'Nur ein Termin mit dem Status pending kann bestätigt werden; dieser ist {status}.',
    fr: 'Seul un rendez-vous pending peut être confirmé ; celui-ci est {status}.',
  },
  'appointment.confirm_invitation': {
    en: 'This invitation has no start yet; set starts_at before confirming it.',
    nl: 'Deze uitnodiging heeft nog geen begin; stel eerst starts_at in en bevestig daarna.',
    de: 'Diese Einladung hat noch keinen Beginn; setzen Sie zuerst starts_at und bestätigen Sie dann.',
    fr: 'Cette invitation n’a pas encore de début ; définissez starts_at avant de la confirmer.',
  },
  'appointment.cancel_closed': {
    en: 'Only a pending or confirmed appointment can be cancelled; this one is {status}.',
    nl: 'Alleen een afspraak die pending of confirmed is kan worden geannuleerd; deze is {status}.',
    de: 'Nur ein Termin mit dem Status pending oder confirmed kann abgesagt werden; dieser ist {status}.',
    fr: 'Seul un rendez-vous pending ou confirmed peut être annulé ; celui-ci est {status}.',
  },
  'appointment.complete_not_confirmed': {
    en: 'Only a confirmed appointment can be completed; this one is {status}.',
    nl: 'Alleen een bevestigde afspraak kan worden afgerond; deze is {status}.',
    de: 'Nur ein bestätigter Termin kann abgeschlossen werden; dieser ist {status}.',
    fr: 'Seul un rendez-vous confirmé peut être terminé ; celui-ci est {status}.',
  },
  'appointment.notify_invitation': {
    en: 'An invitation is only sent for a pending appointment without a start; this one is {status}, starts_at {start}.',
    nl: 'Een uitnodiging wordt alleen verstuurd voor een afspraak die pending is en geen begin heeft; deze is {status}, starts_at {start}.',
    de: 'Eine Einladung wird nur für einen Termin mit dem Status pending ohne Beginn gesendet; dieser ist {status}, starts_at {start}.',
    fr: 'Une invitation n’est envoyée que pour un rendez-vous pending sans début ; celui-ci est {status}, starts_at {start}.',
  },
  'appointment.notify_confirmation': {
    en: 'A confirmation is only sent for a confirmed appointment; this one is {status}.',
    nl: 'Een bevestiging wordt alleen verstuurd voor een bevestigde afspraak; deze is {status}.',
    de: 'Eine Bestätigung wird nur für einen bestätigten Termin gesendet; dieser ist {status}.',
    fr: 'Une confirmation n’est envoyée que pour un rendez-vous confirmé ; celui-ci est {status}.',
  },
  'appointment.notify_reminder': {
    en: 'A reminder is only sent for a pending or confirmed appointment that starts in the future; this one is {status}, starts_at {start}.',
    nl: 'Een herinnering wordt alleen verstuurd voor een afspraak die pending of confirmed is en in de toekomst begint; deze is {status}, starts_at {start}.',
    de: 'Eine Erinnerung wird nur für einen Termin mit dem Status pending oder confirmed gesendet, der in der Zukunft beginnt; dieser ist {status}, starts_at {start}.',
    fr: 'Un rappel n’est envoyé que pour un rendez-vous pending ou confirmed qui commence dans le futur ; celui-ci est {status}, starts_at {start}.',
  },
  'appointment.notify_update': {
    en: 'An update is only sent for a pending or confirmed appointment with a start; this one is {status}, starts_at {start}.',
    nl: 'Een wijziging wordt alleen verstuurd voor een afspraak die pending of confirmed is en een begin heeft; deze is {status}, starts_at {start}.',
    de: 'Eine Änderung wird nur für einen Termin mit dem Status pending oder confirmed mit Beginn gesendet; dieser ist {status}, starts_at {start}.',
    fr: 'Une mise à jour n’est envoyée que pour un rendez-vous pending ou confirmed avec un début ; celui-ci est {status}, starts_at {start}.',
  },
  'appointment.notify_cancellation': {
    en: 'A cancellation is only sent for a cancelled appointment; this one is {status}.',
    nl: 'Een annulering wordt alleen verstuurd voor een geannuleerde afspraak; deze is {status}.',
    de: 'Eine Absage wird nur für einen abgesagten Termin gesendet; dieser ist {status}.',
    fr: 'Une annulation n’est envoyée que pour un rendez-vous annulé ; celui-ci est {status}.',
  },
  'appointment.customer_unsubscribed': {
    en: 'The customer unsubscribed from email; no message is sent.',
    nl: 'De klant heeft zich afgemeld voor e-mail; er wordt geen bericht verstuurd.',
    de: 'Der Kunde hat E-Mails abbestellt; es wird keine Nachricht gesendet.',
    fr: 'Le client s’est désabonné des e-mails ; aucun message n’est envoyé.',
  },
  'appointment.whatsapp_no_template': {
    en: 'No approved WhatsApp template exists for a {kind} message.',
    nl: 'Er is geen goedgekeurde WhatsApp-sjabloon voor een bericht van soort {kind}.',
    de: 'Für eine Nachricht der Art {kind} gibt es keine genehmigte WhatsApp-Vorlage.',
    fr: 'Aucun modèle WhatsApp approuvé n’existe pour un message de type {kind}.',
  },
  'appointment.whatsapp_no_phone': {
    en: 'The customer has no phone number.',
    nl: 'De klant heeft geen telefoonnummer.',
    de: 'Der Kunde hat keine Telefonnummer.',
    fr: 'Le client n’a pas de numéro de téléphone.',
  },
  'appointment.messages_limit': {
    en: 'The company has sent {limit|one:# message|other:# messages} this hour, the most allowed; try again later.',
    nl: 'Het bedrijf heeft dit uur {limit|one:# bericht|other:# berichten} verstuurd, het maximum; probeer het later opnieuw.',
    de: 'Das Unternehmen hat in dieser Stunde {limit|one:# Nachricht|other:# Nachrichten} gesendet, das Maximum; versuchen Sie es später erneut.',
    fr: 'L’entreprise a envoyé {limit|one:# message|other:# messages} cette heure-ci, le maximum ; réessayez plus tard.',
  },
  'availability.until_not_after_from': {
    en: 'until must be after from.',
    nl: 'until moet na from liggen.',
    de: 'until muss nach from liegen.',
    fr: 'until doit être après from.',
  },
  'availability.beyond_horizon': {
    en: 'Availability is given for periods within {years} years of now.',
    nl: 'Beschikbaarheid wordt gegeven voor periodes binnen {years} jaar van nu.',
    de: 'Verfügbarkeit wird für Zeiträume innerhalb von {years} Jahren ab jetzt angegeben.',
    fr: 'La disponibilité est donnée pour des périodes à moins de {years} ans d’aujourd’hui.',
  },
  'availability.too_long': {
    en: 'until may be at most 31 days after from.',
    nl: 'until mag hoogstens 31 dagen na from liggen.',
    de: 'until darf höchstens 31 Tage nach from liegen.',
    fr: 'until peut être au plus 31 jours après from.',
  },
} as const);
