// The problem texts of the inbox, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const conversationMessages = defineMessages({
  'conversation.not_found': {
    en: 'No conversation with this id exists.',
    nl: 'Er bestaat geen gesprek met dit id.',
    de: 'Es gibt keine Unterhaltung mit dieser ID.',
    fr: 'Aucune conversation n’a cet identifiant.',
  },
  'conversation.already_closed': {
    en: 'This conversation is already closed.',
    nl: 'Dit gesprek is al gesloten.',
    de: 'Diese Unterhaltung ist bereits geschlossen.',
    fr: 'Cette conversation est déjà fermée.',
  },
  'conversation.not_closed': {
    en: 'Only a closed conversation can be reopened; this conversation is {status}.',
    nl: 'Alleen een gesloten gesprek kan worden heropend; dit gesprek heeft de status {status}.',
    de: 'Nur eine geschlossene Unterhaltung kann wieder geöffnet werden; diese hat den Status {status}.',
    fr: 'Seule une conversation fermée peut être rouverte ; celle-ci a le statut {status}.',
  },
  'conversation.channel_feature': {
    en: 'Sending over this conversation’s channel needs the feature {feature}.',
    nl: 'Versturen via het kanaal van dit gesprek vereist de functie {feature}.',
    de: 'Das Senden über den Kanal dieser Unterhaltung erfordert die Funktion {feature}.',
    fr: 'L’envoi par le canal de cette conversation nécessite la fonctionnalité {feature}.',
  },
  'conversation.whatsapp_window_closed': {
    en: 'WhatsApp accepts a free-form message only within 24 hours of the customer’s last message ({last}); only the customer can open the window again. Nothing was sent or stored.',
    nl: 'WhatsApp accepteert een vrij bericht alleen binnen 24 uur na het laatste bericht van de klant ({last}); alleen de klant kan dat venster weer openen. Er is niets verstuurd of opgeslagen.',
    de: 'WhatsApp nimmt eine freie Nachricht nur innerhalb von 24 Stunden nach der letzten Nachricht des Kunden an ({last}); nur der Kunde kann das Fenster wieder öffnen. Es wurde nichts gesendet oder gespeichert.',
    fr: 'WhatsApp n’accepte un message libre que dans les 24 heures suivant le dernier message du client ({last}) ; seul le client peut rouvrir cette fenêtre. Rien n’a été envoyé ni enregistré.',
  },
  'conversation.whatsapp_no_customer_message': {
    en: 'WhatsApp accepts a free-form message only within 24 hours of a message of the customer, and the customer has not written in this conversation. Nothing was sent or stored.',
    nl: 'WhatsApp accepteert een vrij bericht alleen binnen 24 uur na een bericht van de klant, en de klant heeft in dit gesprek niet geschreven. Er is niets verstuurd of opgeslagen.',
    de: 'WhatsApp nimmt eine freie Nachricht nur innerhalb von 24 Stunden nach einer Nachricht des Kunden an, und der Kunde hat in dieser Unterhaltung nicht geschrieben. Es wurde nichts gesendet oder gespeichert.',
    fr: 'WhatsApp n’accepte un message libre que dans les 24 heures suivant un message du client, et le client n’a pas écrit dans cette conversation. Rien n’a été envoyé ni enregistré.',
  },
  'conversation.whatsapp_refused': {
    en: 'WhatsApp refused the message: {reason}. Nothing was stored.',
    nl: 'WhatsApp heeft het bericht geweigerd: {reason}. Er is niets opgeslagen.',
    de: 'WhatsApp hat die Nachricht abgelehnt: {reason}. Es wurde nichts gespeichert.',
    fr: 'WhatsApp a refusé le message : {reason}. Rien n’a été enregistré.',
  },
  'conversation.whatsapp_no_number': {
    en: 'The customer of this conversation has no WhatsApp number. Nothing was sent or stored.',
    nl: 'De klant van dit gesprek heeft geen WhatsApp-nummer. Er is niets verstuurd of opgeslagen.',
    de: 'Der Kunde dieser Unterhaltung hat keine WhatsApp-Nummer. Es wurde nichts gesendet oder gespeichert.',
    fr: 'Le client de cette conversation n’a pas de numéro WhatsApp. Rien n’a été envoyé ni enregistré.',
  },
  'conversation.email_no_address': {
    en: 'The customer of this conversation has no usable email address. Nothing was sent or stored.',
    nl: 'De klant van dit gesprek heeft geen bruikbaar e-mailadres. Er is niets verstuurd of opgeslagen.',
    de: 'Der Kunde dieser Unterhaltung hat keine verwendbare E-Mail-Adresse. Es wurde nichts gesendet oder gespeichert.',
    fr: 'Le client de cette conversation n’a pas d’adresse e-mail utilisable. Rien n’a été envoyé ni enregistré.',
  },
  'conversation.too_many_messages': {
    en: 'Too many outgoing messages: at most {limit} per hour ({scope}). Try again after Retry-After seconds.',
    nl: 'Te veel uitgaande berichten: maximaal {limit} per uur ({scope}). Probeer het opnieuw na Retry-After seconden.',
    de: 'Zu viele ausgehende Nachrichten: höchstens {limit} pro Stunde ({scope}). Versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Trop de messages sortants : au plus {limit} par heure ({scope}). Réessayez après Retry-After secondes.',
  },
} as const);
