// Where outbox emails go: an SMTP server (SMTP_URL, through nodemailer), or — without SMTP_URL — nowhere: they
// stay in outbound_emails as `recorded`, where operators and tests read what would have been sent.
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Config } from '../config.ts';

// nodemailer is loaded when an SMTP sender is made (SMTP_URL set), not with this module: as the AWS SDK in
// files/s3-storage.ts, so that a process that records its emails (and every test file) does not load it.
const require = createRequire(import.meta.url);
const nodemailer = () => require('nodemailer') as typeof Nodemailer;

export type MailSender =
  | { readonly kind: 'recording' }
  | { readonly kind: 'smtp'; send(message: Mail.Options): Promise<void>; close(): void };

export type MailIdentity = {
  /** The address every email is sent from (the company's name is its display name). */
  fromAddress: string;
  /** The domain of Message-IDs. */
  domain: string;
};

export function mailSenderFor(config: Pick<Config, 'SMTP_URL'>): MailSender {
  if (!config.SMTP_URL) return { kind: 'recording' };
  // One pooled connection set per process; nodemailer reconnects on its own.
  const transport = nodemailer().createTransport(config.SMTP_URL);
  return {
    kind: 'smtp',
    send: async (message) => {
      await transport.sendMail(message);
    },
    close: () => transport.close(),
  };
}

export function mailIdentityOf(config: Pick<Config, 'MAIL_FROM' | 'publicUrl'>): MailIdentity {
  const fromAddress = config.MAIL_FROM ?? `noreply@${new URL(config.publicUrl).hostname}`;
  return { fromAddress, domain: fromAddress.slice(fromAddress.lastIndexOf('@') + 1) };
}

/** An SMTP answer that will not change on a retry (5xx: the address or the message is refused). */
export function isPermanentRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
