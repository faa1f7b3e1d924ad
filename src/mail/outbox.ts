// The email outbox: an email is written in the transaction of the change that causes it, with an email_send job
// (jobs/email-send.ts), so it is sent exactly when that change commits — and not at all when it rolls back.
import { sql } from 'drizzle-orm';
import { queueJob } from '../db/job-queue.ts';
import { outboundEmailAttachments, outboundEmails } from '../db/schema/index.ts';
import { sendUntilCommit, type Tx } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';

export type EmailAttachment = { filename: string; contentType: string; content: Uint8Array };

export type OutgoingEmail = {
  to: string[];
  subject: string;
  /** The plain-text body; `html` is an optional alternative. */
  text: string;
  html?: string;
  /** What caused it (e.g. `quote_sent`), for operators and tests. */
  kind: string;
  /** Reply-To; by default the company's own address. */
  replyTo?: string;
  /** Extra headers, e.g. `In-Reply-To` and `References` that keep a customer's thread. */
  headers?: Record<string, string>;
  attachments?: EmailAttachment[];
};

/**
 * Queues the email in `tx` (which runs as the company: withTenant). Returns its id; it is sent with the
 * Message-ID `<{id}@{domain}>` (messageIdOf), so a reply's In-Reply-To names it whatever the domain is.
 */
export async function queueEmail(tx: Tx, companyId: string, email: OutgoingEmail): Promise<{ id: string } | null> {
  if (email.to.length === 0) return null;
  const id = prefixedId('em');
  // Nothing here needs an answer: the rows and the job go with the transaction's COMMIT (sendUntilCommit).
  await sendUntilCommit(
    tx,
    tx.insert(outboundEmails).values({
      companyId,
      id,
      to: email.to,
      subject: email.subject,
      body: email.text,
      html: email.html ?? null,
      replyTo: email.replyTo ?? null,
      headers: email.headers ?? {},
      kind: email.kind,
    }),
  );
  const attachments = email.attachments ?? [];
  if (attachments.length > 0) {
    await sendUntilCommit(
      tx,
      tx.insert(outboundEmailAttachments).values(
        attachments.map((a, position) => ({
          companyId,
          emailId: id,
          position,
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content),
        })),
      ),
    );
  }
  await sendUntilCommit(
    tx,
    tx.execute(sql`select ${queueJob('email_send', { companyId, emailId: id }, { jobKey: `email:${id}` })}`),
  );
  return { id };
}

/** The Message-ID an outbox email is sent with. */
export function messageIdOf(emailId: string, domain: string): string {
  return `<${emailId}@${domain}>`;
}

/** The outbox email a Message-ID (from In-Reply-To or References) names, or null when it names none of ours. */
export function emailIdOf(messageId: string): string | null {
  const match = /^<?(em_[A-Za-z0-9]+)@[^>]+>?$/.exec(messageId.trim());
  return match ? (match[1] as string) : null;
}
