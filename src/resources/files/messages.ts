// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const fileMessages = defineMessages({
  'file.link_invalid': {
    en: 'This link is invalid or has expired; read the record again for a fresh link.',
    nl: 'Deze link is ongeldig of verlopen; lees het record opnieuw voor een nieuwe link.',
    de: 'Dieser Link ist ungültig oder abgelaufen; lesen Sie den Datensatz erneut für einen neuen Link.',
    fr: 'Ce lien n’est pas valide ou a expiré ; relisez l’enregistrement pour obtenir un nouveau lien.',
  },
});
