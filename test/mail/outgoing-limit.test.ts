// The outgoing-message limits: counted per company and scope in PostgreSQL, so every API node agrees; the
// message over a limit is refused with the seconds until the hour ends, and a rolled-back send is not counted.
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/tenant.ts';
import { COMPANY_SCOPE, countOutgoing, type OutgoingScope } from '../../src/mail/outgoing-limit.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await setupApi();
});

const count = (db: TestApi['db'], companyId: string, scopes: OutgoingScope[], n = 1) =>
  withTenant(db, companyId, (tx) => countOutgoing(tx, companyId, scopes, n));

describe('outgoing-message limits', () => {
  it('the 251st message of a company in an hour is refused, counted across two API processes', async () => {
    const { companyId } = await api.tenant();
    const other = await api.otherProcess();
    for (let i = 0; i < 125; i++) {
      expect(await count(api.db, companyId, [COMPANY_SCOPE])).toEqual({ allowed: true });
      expect(await count(other.deps.db, companyId, [COMPANY_SCOPE])).toEqual({ allowed: true });
    }
    const refused = await count(other.deps.db, companyId, [COMPANY_SCOPE]);
    expect(refused).toMatchObject({ allowed: false, scope: 'company', limit: 250 });
    if (refused.allowed) throw new Error('unreachable');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(3600);
    // Another company has its own count.
    const { companyId: second } = await api.tenant();
    expect(await count(api.db, second, [COMPANY_SCOPE])).toEqual({ allowed: true });
  });

  it('a narrower scope refuses on its own limit; a rolled-back count is not kept', async () => {
    const { companyId } = await api.tenant();
    const conversation: OutgoingScope = { scope: 'conversation:c1', limit: 2 };
    expect(await count(api.db, companyId, [COMPANY_SCOPE, conversation], 2)).toEqual({ allowed: true });
    await expect(
      withTenant(api.db, companyId, async (tx) => {
        const decision = await countOutgoing(tx, companyId, [COMPANY_SCOPE, conversation]);
        expect(decision).toMatchObject({ allowed: false, scope: 'conversation:c1', limit: 2 });
        throw new Error('refused: roll back');
      }),
    ).rejects.toThrow('roll back');
    const rows =
      await api.sql`select scope, count from outgoing_message_counts where company_id = ${companyId} order by scope`;
    expect(rows.map((r) => [r.scope, r.count])).toEqual([
      ['company', 2],
      ['conversation:c1', 2],
    ]);
  });
});
