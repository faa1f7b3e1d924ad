// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const eventMessages = defineMessages({
  'event.not_found': {
    en: 'No event with this id exists (events are kept 30 days).',
    nl: 'Er bestaat geen event met dit id (events worden 30 dagen bewaard).',
    de: 'Es gibt kein Ereignis mit dieser ID (Ereignisse werden 30 Tage aufbewahrt).',
    fr: 'Aucun événement n’a cet identifiant (les événements sont conservés 30 jours).',
  },
  'event.unknown_types': {
    en: 'Unknown event type {unknown}; known types are {known}.',
    nl: 'Onbekend eventtype {unknown}; bekende typen zijn {known}.',
    de: 'Unbekannter Ereignistyp {unknown}; bekannte Typen sind {known}.',
    fr: 'Type d’événement inconnu {unknown} ; les types connus sont {known}.',
  },
  'event.scope_needed': {
    en: 'Reading this event needs the scope {scope}.',
    nl: 'Voor het lezen van dit event is de scope {scope} nodig.',
    de: 'Zum Lesen dieses Ereignisses ist der Scope {scope} erforderlich.',
    fr: 'La lecture de cet événement nécessite la portée {scope}.',
  },
} as const);
