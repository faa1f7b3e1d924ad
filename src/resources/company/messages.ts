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
  'reminders.not_increasing': {
    en: 'Must be more days after the due date than the step before it ({previous}).',
    nl: 'Moet meer dagen na de vervaldatum liggen dan de stap ervoor ({previous}).',
    de: 'Muss mehr Tage nach dem Fälligkeitsdatum liegen als der Schritt davor ({previous}).',
    fr: 'Doit être plus de jours après l’échéance que l’étape précédente ({previous}).',
  },
} as const);
