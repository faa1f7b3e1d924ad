import type { EventDeclarations } from '../../events/catalogue.ts';

export const appointmentEvents = {
  'appointment.created': {
    readScopes: ['appointments.read'],
    summary: { en: 'Appointment planned', nl: 'Afspraak gepland', de: 'Termin geplant', fr: 'Rendez-vous planifié' },
  },
  'appointment.updated': {
    readScopes: ['appointments.read'],
    summary: {
      en: 'Appointment changed',
      nl: 'Afspraak gewijzigd',
      de: 'Termin geändert',
      fr: 'Rendez-vous modifié',
    },
  },
  'appointment.cancelled': {
    readScopes: ['appointments.read'],
    summary: {
      en: 'Appointment cancelled',
      nl: 'Afspraak geannuleerd',
      de: 'Termin abgesagt',
      fr: 'Rendez-vous annulé',
    },
  },
} as const satisfies EventDeclarations;
