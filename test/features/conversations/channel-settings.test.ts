// Where a company's channels are configured: `company channels` writes channel_settings (a widget id made once,
// an inbound secret shown once and kept as SHA-256, the WhatsApp account), and the WhatsApp adapter reads it.
import { beforeAll, describe, expect, it } from 'vitest';
import { whatsappAccountOf } from '../../../src/channels/whatsapp.ts';
import { parseCommand } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/commands.ts';
import { withTenant } from '../../../src/db/tenant.ts';
import { sha256Hex } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await setupApi();
});

const run = async (argv: string[]) => {
  const command = parseCommand(argv);
  if (command.name !== 'company channels') throw new Error(`parsed as ${command.name}`);
  const output = await runCommand(api.deps, command, async () => {});
  return output?.json as Record<string, unknown>;
};

describe('company channels', () => {
  it('sets the WhatsApp account and a new inbound secret; the widget id stays', async () => {
    const { companyId } = await api.tenant();
    const first = await run(['company', 'channels', companyId, '--new-inbound-secret']);
    expect(first.widget_id).toMatch(/^wid_/);
    expect(first.whatsapp_sends).toBe(false);
    expect(first.inbound_email_secret).toMatch(/^ibs_/);
    const [row] = await api.sql`select inbound_email_secret_hash from channel_settings where company_id = ${companyId}`;
    expect(row.inbound_email_secret_hash).toBe(sha256Hex(first.inbound_email_secret as string));

    const second = await run([
      'company',
      'channels',
      companyId,
      '--whatsapp-phone-number-id',
      '1098765432',
      '--whatsapp-token',
      'EAAG-token',
      '--whatsapp-base-url',
      'http://127.0.0.1:9/v21.0',
    ]);
    expect(second).toMatchObject({ widget_id: first.widget_id, whatsapp_sends: true, inbound_email_secret: null });
    const account = await withTenant(api.db, companyId, (tx) => whatsappAccountOf(tx, companyId));
    expect(account).toEqual({
      phoneNumberId: '1098765432',
      baseUrl: 'http://127.0.0.1:9/v21.0',
      accessToken: 'EAAG-token',
    });
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => parseCommand(['company', 'channels', crypto.randomUUID(), '--whatsapp-base-url', 'ftp://x'])).toThrow(
      /whatsapp-base-url/,
    );
  });
});
