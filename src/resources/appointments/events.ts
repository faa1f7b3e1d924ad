import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('appointments.read');

export const appointmentEvents = {
  'appointment.created': event({
    en: 'Appointment planned',
    nl: 'Afspraak gepland',
    de: 'Termin geplant',
    fr: 'Rendez-vous planifié',
  }),
  'appointment.updated': event({
    en: 'Appointment changed',
    nl: 'Afspraak gewijzigd',
    de: 'Termin geändert',
    fr: 'Rendez-vous modifié',
  }),
  'appointment.cancelled': event({
    en: 'Appointment cancelled',
    nl: 'Afspraak geannuleerd',
    de: 'Termin abgesagt',
    fr: 'Rendez-vous annulé',
  }),
} as const satisfies EventDeclarations;
