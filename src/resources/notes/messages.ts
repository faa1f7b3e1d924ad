// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const noteMessages = defineMessages({
  'note.not_found_on_customer': {
    en: 'No note with this id exists on this customer.',
    nl: 'Deze klant heeft geen notitie met dit id.',
    de: 'Dieser Kunde hat keine Notiz mit dieser ID.',
    fr: 'Ce client n’a aucune note avec cet identifiant.',
  },
  'note.not_found_on_deal': {
    en: 'No note with this id exists on this deal.',
    nl: 'Deze deal heeft geen notitie met dit id.',
    de: 'Dieser Deal hat keine Notiz mit dieser ID.',
    fr: 'Cette affaire n’a aucune note avec cet identifiant.',
  },
} as const);
