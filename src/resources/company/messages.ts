// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const companyMessages = defineMessages({
  'company.not_found': {
    en: 'The company does not exist.',
    nl: 'Het bedrijf bestaat niet.',
    de: 'Das Unternehmen existiert nicht.',
    fr: 'L’entreprise n’existe pas.',
  },
  'user.unknown_reference': {
    en: 'No active user has this id.',
    nl: 'Er is geen actieve gebruiker met dit id.',
    de: 'Kein aktiver Benutzer hat diese ID.',
    fr: 'Aucun utilisateur actif n’a cet identifiant.',
  },
} as const);
