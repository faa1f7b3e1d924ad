// Web chat: the message is delivered by being stored — the visitor's widget session reads its conversation's
// messages (the public visitor API), so there is nothing to send and nothing that can refuse.
import type { ChannelAdapter } from './channel.ts';

export function webChatAdapter(): ChannelAdapter<'web'> {
  return {
    channel: 'web',
    async send() {
      return { accepted: true, recorded: false };
    },
  };
}
