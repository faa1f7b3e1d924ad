// The channels of the process: email (outbox), WhatsApp (Cloud API, or recorded without a company's settings)
// and web chat, behind one `send` (channel.ts). Created once per process (deps), on the process's clock.
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { mailIdentityOf } from '../mail/sender.ts';
import type { ChannelAdapter, Channels } from './channel.ts';
import { emailAdapter } from './email.ts';
import { webChatAdapter } from './web-chat.ts';
import { Recorder, whatsappAdapter } from './whatsapp.ts';

export * from './channel.ts';

export type ProcessChannels = Channels & { readonly recorder: Recorder };

export function createChannels(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'publicUrl'>,
  log: Logger,
  clock: Clock = systemClock,
): ProcessChannels {
  const recorder = new Recorder(log);
  const adapters: { [C in ChannelAdapter['channel']]: ChannelAdapter<C> } = {
    email: emailAdapter({ domain: mailIdentityOf(config).domain, recording: !config.SMTP_URL }),
    whatsapp: whatsappAdapter({ clock, recorder }),
    web: webChatAdapter(),
  };
  return {
    recorder,
    send: (tx, companyId, message) => {
      switch (message.channel) {
        case 'email':
          return adapters.email.send(tx, companyId, message);
        case 'whatsapp':
          return adapters.whatsapp.send(tx, companyId, message);
        case 'web':
          return adapters.web.send(tx, companyId, message);
      }
    },
  };
}

/** Said once at start (email's recording mode is said by main.ts with SMTP_URL). */
export function logChannelModes(log: Logger): void {
  log.warn(
    'channels: WhatsApp messages of companies without WhatsApp settings (CLI `company channels`) are recorded and logged, not sent',
  );
}
