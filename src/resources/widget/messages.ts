// The problem texts of the widget's visitor API, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const widgetMessages = defineMessages({
  'widget.not_found': {
    en: 'No chat widget has this id. Check the data-widget-id of the script tag.',
    nl: 'Er is geen chatwidget met dit id. Controleer de data-widget-id van de scripttag.',
    de: 'Es gibt kein Chat-Widget mit dieser ID. Prüfen Sie die data-widget-id des Script-Tags.',
    fr: 'Aucun widget de chat n’a cet identifiant. Vérifiez le data-widget-id de la balise script.',
  },
  'widget.token_invalid': {
    en: 'The visitor token is missing, unknown or belongs to another widget; start a new chat session.',
    nl: 'Het bezoekerstoken ontbreekt, is onbekend of hoort bij een andere widget; begin een nieuwe chatsessie.',
    de: 'Das Besuchertoken fehlt, ist unbekannt oder gehört zu einem anderen Widget; starten Sie eine neue Chat-Sitzung.',
    fr: 'Le jeton de visiteur est absent, inconnu ou appartient à un autre widget ; démarrez une nouvelle session de chat.',
  },
  'widget.unavailable': {
    en: 'The web chat of this company is not available (it needs the feature chat_widget).',
    nl: 'De webchat van dit bedrijf is niet beschikbaar (daarvoor is de functie chat_widget nodig).',
    de: 'Der Web-Chat dieses Unternehmens ist nicht verfügbar (er erfordert die Funktion chat_widget).',
    fr: 'Le chat web de cette entreprise n’est pas disponible (il nécessite la fonctionnalité chat_widget).',
  },
  'widget.after_unknown': {
    en: 'No message of this conversation has this id.',
    nl: 'Geen bericht van dit gesprek heeft dit id.',
    de: 'Keine Nachricht dieser Unterhaltung hat diese ID.',
    fr: 'Aucun message de cette conversation n’a cet identifiant.',
  },
});
