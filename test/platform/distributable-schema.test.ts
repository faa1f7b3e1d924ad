// The schema stays distributable by company (docs/scaling.md: Citus with company_id as the distribution column):
// in every tenant table the primary key, each unique constraint or index, and each foreign key to another tenant
// table include company_id. A new table or key without it fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

/** Keys that may leave company_id out, and why. */
const EXCEPTIONS: Record<string, string> = {
  // Authentication finds a key by its hash before the company is known: a reference table under Citus.
  api_keys_hash: 'api_keys is looked up across companies by authentication',
  // Inbound webhooks and the chat widget name a company by its public widget id, its WhatsApp number or its
  // inbound secret before the company is known: channel_settings is a reference table under Citus.
  channel_settings_inbound_secret: 'inbound email finds its company by the secret',
  channel_settings_whatsapp: 'the WhatsApp webhook finds its company by the phone-number id',
  channel_settings_widget: 'the chat widget finds its company by its public id',
};

let api: TestApi;
beforeAll(async () => {
  api = await setupApi();
});

describe('the schema is distributable by company_id', () => {
  it('every key of a tenant table includes company_id', async () => {
    const offenders = await api.sql<{ table: string; key: string; kind: string }[]>`
      with tenant as (
        select c.oid, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped)
      )
      select t.relname as table, con.conname as key,
             case con.contype when 'p' then 'primary key' when 'u' then 'unique' else 'foreign key' end as kind
      from tenant t join pg_constraint con on con.conrelid = t.oid
      where con.contype in ('p', 'u', 'f')
        and not (con.contype = 'f' and con.confrelid = 'companies'::regclass)
        and not exists (select 1 from pg_attribute a
                        where a.attrelid = con.conrelid and a.attnum = any(con.conkey) and a.attname = 'company_id')
      union all
      select t.relname, i.indexrelid::regclass::text, 'unique index'
      from tenant t join pg_index i on i.indrelid = t.oid
      where i.indisunique and not i.indisprimary
        and not exists (select 1 from pg_constraint con where con.conindid = i.indexrelid)
        and not exists (select 1 from pg_attribute a
                        where a.attrelid = t.oid and a.attnum = any(i.indkey) and a.attname = 'company_id')
      order by 1, 2`;
    expect(offenders.filter((o) => !(o.key in EXCEPTIONS))).toEqual([]);
  });

  it('a foreign key between tenant tables matches company_id with company_id', async () => {
    const mismatched = await api.sql<{ key: string }[]>`
      select con.conname as key
      from pg_constraint con
      where con.contype = 'f' and con.confrelid <> 'companies'::regclass
        and exists (select 1 from pg_attribute a where a.attrelid = con.conrelid and a.attname = 'company_id')
        and not exists (
          select 1 from unnest(con.conkey, con.confkey) as k(local, referenced)
          join pg_attribute la on la.attrelid = con.conrelid and la.attnum = k.local
          join pg_attribute ra on ra.attrelid = con.confrelid and ra.attnum = k.referenced
          where la.attname = 'company_id' and ra.attname = 'company_id')
      order by 1`;
    expect(mismatched).toEqual([]);
  });
});
