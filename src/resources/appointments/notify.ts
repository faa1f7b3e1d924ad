// Messages to the customer about an appointment (Send a message about an appointment, and Cancel with
// notify_customer): which kinds fit which appointment, the checks before sending (unsubscribed: 409; the company's
// outgoing-message limit: 429), and the email itself through the outbox, with an iCalendar invitation
// (src/domain/icalendar.ts) whenever the appointment has a time.
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { appointments, companies } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { appointmentCalendar } from '../../domain/icalendar.ts';
import { formatDay, formatTime, labelled } from '../../domain/locale-format.ts';
import { salutation } from '../../domain/salutation.ts';
import { countOutgoingMessage } from '../../http/outgoing-limit.ts';
import { ApiProblem } from '../../http/problems.ts';
import type { Language } from '../../languages.ts';
import { queueEmail } from '../../mail/outbox.ts';
import { COMPANY_SCOPE } from '../../mail/outgoing-limit.ts';
import { mailIdentityOf } from '../../mail/sender.ts';
import { findCustomer } from '../customers/queries.ts';
import { appointmentMessages } from './messages.ts';
import type { AppointmentRow } from './serialize.ts';

export type NotificationKind = 'invitation' | 'confirmation' | 'reminder' | 'update' | 'cancellation';

/** Whether a message of `kind` fits the appointment now (the contract's table under Send a message). */
export function kindFits(kind: NotificationKind, row: AppointmentRow, now: Date): boolean {
  const open = row.status === 'pending' || row.status === 'confirmed';
  switch (kind) {
    case 'invitation':
      return row.status === 'pending' && row.startsAt === null;
    case 'confirmation':
      return row.status === 'confirmed';
    case 'reminder':
      return open && row.startsAt !== null && row.startsAt > now;
    case 'update':
      return open && row.startsAt !== null;
    case 'cancellation':
      return row.status === 'cancelled';
  }
}

export function refuseUnfitKind(kind: NotificationKind, row: AppointmentRow, now: Date): void {
  if (kindFits(kind, row, now)) return;
  const params = { status: row.status, start: row.startsAt?.toISOString() ?? 'null' };
  throw new ApiProblem('conflict', appointmentMessages.message(`appointment.notify_${kind}`, params));
}

type Texts = { subject: string; intro: string };
export const APPOINTMENT_TEXTS: Record<NotificationKind, Record<Language, Texts>> = {
  invitation: {
    en: {
      subject: 'Invitation: {title}',
      intro:
        'We would like to make an appointment with you. Reply to this email with a few moments that suit you and we will confirm one.',
    },
    nl: {
      subject: 'Uitnodiging: {title}',
      intro:
        'Wij maken graag een afspraak met u. Beantwoord deze e-mail met een paar momenten die u schikken, dan bevestigen wij er één.',
    },
    de: {
      subject: 'Einladung: {title}',
      intro:
        'wir möchten gern einen Termin mit Ihnen vereinbaren. Antworten Sie auf diese E-Mail mit einigen Zeitpunkten, die Ihnen passen, und wir bestätigen einen davon.',
    },
    fr: {
      subject: 'Invitation\u00A0: {title}',
      intro:
        'Nous souhaitons convenir d’un rendez-vous avec vous. Répondez à cet e-mail avec quelques moments qui vous conviennent et nous en confirmerons un.',
    },
  },
  confirmation: {
    en: { subject: 'Appointment confirmed: {title}', intro: 'Your appointment is confirmed.' },
    nl: { subject: 'Afspraak bevestigd: {title}', intro: 'Uw afspraak is bevestigd.' },
    de: { subject: 'Termin bestätigt: {title}', intro: 'Ihr Termin ist bestätigt.' },
    fr: { subject: 'Rendez-vous confirmé\u00A0: {title}', intro: 'Votre rendez-vous est confirmé.' },
  },
  reminder: {
    en: { subject: 'Reminder: {title}', intro: 'A reminder of your appointment.' },
    nl: { subject: 'Herinnering: {title}', intro: 'Een herinnering aan uw afspraak.' },
    de: { subject: 'Erinnerung: {title}', intro: 'eine Erinnerung an Ihren Termin.' },
    fr: { subject: 'Rappel\u00A0: {title}', intro: 'Un rappel de votre rendez-vous.' },
  },
  update: {
    en: {
      subject: 'Appointment changed: {title}',
      intro: 'Your appointment has changed; these are the current details.',
    },
    nl: { subject: 'Afspraak gewijzigd: {title}', intro: 'Uw afspraak is gewijzigd; dit zijn de actuele gegevens.' },
    de: { subject: 'Termin geändert: {title}', intro: 'Ihr Termin wurde geändert; dies sind die aktuellen Angaben.' },
    fr: {
      subject: 'Rendez-vous modifié\u00A0: {title}',
      intro: 'Votre rendez-vous a changé\u00A0; voici les informations à jour.',
    },
  },
  cancellation: {
    en: { subject: 'Appointment cancelled: {title}', intro: 'Your appointment has been cancelled.' },
    nl: { subject: 'Afspraak geannuleerd: {title}', intro: 'Uw afspraak is geannuleerd.' },
    de: { subject: 'Termin abgesagt: {title}', intro: 'Ihr Termin wurde abgesagt.' },
    fr: { subject: 'Rendez-vous annulé\u00A0: {title}', intro: 'Votre rendez-vous a été annulé.' },
  },
};
export const APPOINTMENT_LABELS: Record<Language, { when: string; where: string; reason: string }> = {
  en: { when: 'When', where: 'Where', reason: 'Reason' },
  nl: { when: 'Wanneer', where: 'Waar', reason: 'Reden' },
  de: { when: 'Wann', where: 'Wo', reason: 'Grund' },
  fr: { when: 'Quand', where: 'Où', reason: 'Motif' },
};

/**
 * The appointment's time as the customer reads it: in the company's time zone and the message's language, by the
 * service's one formatter (British English, as on the PDFs).
 */
export function whenText(
  row: Pick<AppointmentRow, 'startsAt' | 'endsAt' | 'allDay'>,
  timeZone: string,
  language: Language,
): string | null {
  if (!row.startsAt || !row.endsAt) return null;
  const first = formatDay(row.startsAt, language, timeZone);
  if (row.allDay) {
    // An all-day appointment ends at the midnight after its last day.
    const lastDay = formatDay(new Date(row.endsAt.getTime() - 1), language, timeZone);
    return lastDay === first ? first : `${first} – ${lastDay}`;
  }
  return `${first}, ${formatTime(row.startsAt, language, timeZone)} – ${formatTime(row.endsAt, language, timeZone)}`;
}

export type SendRequest = {
  kind: NotificationKind;
  channel: 'email' | 'whatsapp';
  message: string | null;
  language: Language | undefined;
};

/**
 * Checks and queues the message in `tx` (the change's transaction: a refusal rolls the change back too). Returns
 * the recipient and language. WhatsApp has no approved templates in this service, so it is refused (409).
 */
export async function sendAppointmentMessage(
  tx: Tx,
  config: Config,
  row: AppointmentRow,
  request: SendRequest,
  now: Date,
): Promise<{ recipient: string; language: Language }> {
  const customer = await findCustomer(tx, row.companyId, row.customerId);
  const [company] = await tx.select().from(companies).where(eq(companies.id, row.companyId));
  if (!customer || !company) throw new Error('appointment without its customer or company');
  // The customer's language: the request's, else the one the last message about this appointment was written in
  // (a cancellation with notify_customer follows an English invitation), else the company's.
  const language = request.language ?? row.messageLanguage ?? company.language;
  if (request.channel === 'whatsapp') {
    if (!customer.phone) throw new ApiProblem('conflict', appointmentMessages.message('appointment.whatsapp_no_phone'));
    throw new ApiProblem(
      'conflict',
      appointmentMessages.message('appointment.whatsapp_no_template', { kind: request.kind }),
    );
  }
  if (customer.emailUnsubscribed)
    throw new ApiProblem('conflict', appointmentMessages.message('appointment.customer_unsubscribed'));
  await countOutgoingMessage(tx, row.companyId, [COMPANY_SCOPE], ({ limit }) =>
    appointmentMessages.message('appointment.messages_limit', { limit }),
  );

  const texts = APPOINTMENT_TEXTS[request.kind][language];
  const labels = APPOINTMENT_LABELS[language];
  const fill = (text: string) => text.replaceAll('{title}', row.title);
  const when = whenText(row, company.timeZone, language);
  const lines = [
    salutation(customer.name, language),
    '',
    fill(texts.intro),
    '',
    row.title,
    ...(when ? [labelled(labels.when, when, language)] : []),
    ...(row.location ? [labelled(labels.where, row.location, language)] : []),
    ...(row.description ? ['', row.description] : []),
    ...(request.kind === 'cancellation' && row.cancellationReason
      ? ['', labelled(labels.reason, row.cancellationReason, language)]
      : []),
    ...(request.message ? ['', request.message] : []),
    '',
    company.name,
  ];
  const identity = mailIdentityOf(config);
  const attachments =
    row.startsAt && row.endsAt
      ? [
          {
            filename: request.kind === 'cancellation' ? 'cancel.ics' : 'invite.ics',
            contentType: `text/calendar; charset=utf-8; method=${row.status === 'cancelled' ? 'CANCEL' : 'REQUEST'}`,
            content: Buffer.from(
              appointmentCalendar({
                // One UID for every message about this appointment, so calendars move the entry; the version
                // grows with every change, so it serves as the SEQUENCE.
                uid: `${row.id}@${identity.domain}`,
                sequence: row.version - 1,
                status: row.status,
                startsAt: row.startsAt,
                endsAt: row.endsAt,
                allDay: row.allDay,
                title: row.title,
                description: row.description,
                location: row.location,
                timeZone: company.timeZone,
                organizer: { name: company.name, email: company.email ?? identity.fromAddress },
                attendee: { name: customer.name, email: customer.email },
                stamp: now,
              }),
            ),
          },
        ]
      : [];
  await queueEmail(tx, row.companyId, {
    to: [customer.email],
    subject: fill(texts.subject),
    text: lines.join('\n'),
    kind: `appointment_${request.kind}`,
    attachments,
  });
  if (row.messageLanguage !== language)
    await tx
      .update(appointments)
      .set({ messageLanguage: language })
      .where(and(eq(appointments.companyId, row.companyId), eq(appointments.id, row.id)));
  return { recipient: customer.email, language };
}
