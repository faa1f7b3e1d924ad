// A real SMTP server on 127.0.0.1 (the smtp-server package) for tests of what the service emails: each
// message it accepts is parsed with mailparser, as a mail client would see it.
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { until } from './async.ts';

export type ReceivedMail = ParsedMail & { envelopeTo: string[]; raw: Buffer };

export type TestSmtp = {
  /** The SMTP_URL of this server. */
  url: string;
  received: ReceivedMail[];
  /** Waits (bounded) until a received message matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Answers the next RCPT TO of `address` with this SMTP code (e.g. 550 for a refused address, 451 to retry). */
  refuse(address: string, code: number): void;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = refusals.get(address.address.toLowerCase());
      if (code === undefined) return callback();
      refusals.delete(address.address.toLowerCase());
      callback(Object.assign(new Error(`refused by the test server (${code})`), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) => {
            received.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw }));
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(match, timeoutMs = 10_000) {
      await until(() => received.some(match), 'the SMTP server received the email', timeoutMs);
      return received.find(match) as ReceivedMail;
    },
    refuse(address, code) {
      refusals.set(address.toLowerCase(), code);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
