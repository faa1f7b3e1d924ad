// The email_send task: sends one outbox email (outbox.ts) and records how it went. A temporary failure (the
// SMTP server is down, 4xx) throws, so Graphile Worker retries with its backoff; a permanent refusal (5xx) is
// recorded as failed and not retried. An email that is no longer queued (sent, recorded) is not sent again, and one
// that its cause no longer wants (EmailHolds: an invoice reminder of an invoice paid meanwhile) is withheld.
import { and, asc, eq } from 'drizzle-orm';
import type { Task } from 'graphile-worker';
import type { Db } from '../../db/client.ts';
import { companies, outboundEmailAttachments, outboundEmails } from '../../db/schema/index.ts';
import { type Tx, withTenant } from '../../db/tenant.ts';
import { messageIdOf } from '../outbox.ts';
import { isPermanentRefusal, type MailIdentity, type MailSender } from '../sender.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      email_send: { companyId: string; emailId: string };
    }
  }
}

/**
 * Checks, by email kind, that an email is still wanted at the moment it is sent: a reason not to send it (it is then
 * withheld), or null. Run in the transaction that reads the email, as its company.
 */
export type EmailHolds = Readonly<
  Record<string, (tx: Tx, email: typeof outboundEmails.$inferSelect) => Promise<string | null>>
>;

export function emailSendTask(
  db: Db,
  sender: MailSender,
  identity: MailIdentity,
  holds: EmailHolds = {},
): Task<'email_send'> {
  return async ({ companyId, emailId }) => {
    const key = and(eq(outboundEmails.companyId, companyId), eq(outboundEmails.id, emailId));
    const messageId = messageIdOf(emailId, identity.domain);
    const finish = (values: Partial<typeof outboundEmails.$inferInsert>) =>
      withTenant(db, companyId, (tx) =>
        tx
          .update(outboundEmails)
          .set({ messageId, ...values })
          .where(key),
      );

    const loaded = await withTenant(db, companyId, async (tx) => {
      const [email] = await tx.select().from(outboundEmails).where(key);
      if (!email || email.status !== 'queued') return null;
      const held = await holds[email.kind]?.(tx, email);
      if (held) {
        await tx.update(outboundEmails).set({ status: 'withheld', error: held }).where(key);
        return null;
      }
      const [company] = await tx
        .select({ name: companies.name, email: companies.email })
        .from(companies)
        .where(eq(companies.id, companyId));
      const attachments = await tx
        .select()
        .from(outboundEmailAttachments)
        .where(and(eq(outboundEmailAttachments.companyId, companyId), eq(outboundEmailAttachments.emailId, emailId)))
        .orderBy(asc(outboundEmailAttachments.position));
      return { email, company, attachments };
    });
    if (!loaded) return;
    if (sender.kind === 'recording') {
      await finish({ status: 'recorded' });
      return;
    }
    const { email, company, attachments } = loaded;
    const replyTo = email.replyTo ?? company?.email ?? undefined;
    try {
      await sender.send({
        from: { name: company?.name ?? identity.fromAddress, address: identity.fromAddress },
        to: email.to,
        replyTo,
        subject: email.subject,
        text: email.body,
        html: email.html ?? undefined,
        messageId,
        headers: email.headers,
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (isPermanentRefusal(error)) {
        await finish({ status: 'failed', error: reason.slice(0, 1000) });
        return;
      }
      await finish({ error: reason.slice(0, 1000) });
      throw error;
    }
    await finish({ status: 'sent', sentAt: new Date(), error: null });
  };
}
