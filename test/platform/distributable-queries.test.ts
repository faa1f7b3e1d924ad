// The queries stay distributable by company (docs/scaling.md: Citus with company_id as the distribution column):
// every join that reaches tenant data stays inside one company, so that Citus runs it on the one node holding
// the company (a co-located join, or a router query). Every file of src/ is read with the TypeScript parser:
// drizzle's innerJoin/leftJoin/rightJoin/fullJoin calls must name the joined table's companyId; the SQL templates
// (sql`…`, tx`…`, `.unsafe(…)`, fragments of the same file inlined) are read by ./sql-joins.ts, whose rule — the
// tenant relations of each query block, CTEs and subqueries included, tied to one company by equal company_id
// columns or by the same pinned value — is written at its top.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getTableColumns, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema/index.ts';
import { readFile, type Tenancy } from './sql-joins.ts';

function tenancyOfSchema(): Tenancy {
  const names = new Set<string>();
  const tables: Tenancy['tables'] = new Map();
  for (const [exported, value] of Object.entries(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const columns = new Map(
      Object.entries(getTableColumns(value)).map(([property, column]) => [property, column.name]),
    );
    tables.set(exported, { name: config.name, columns });
    if (config.columns.some((c) => c.name === 'company_id')) names.add(config.name);
  }
  return { names, tables };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const tenancy = tenancyOfSchema();
const read = (source: string) => readFile('case.ts', source, tenancy);
/** What fails the guard in one source: violations, SQL it cannot read, unscoped drizzle joins. */
const failures = (source: string) => {
  const report = read(source);
  return [...report.violations, ...report.unreadable, ...report.builderJoins.filter((j) => !j.scoped)];
};

// Statements the guard must refuse, one per way of leaving the company (each a TypeScript source line).
const REFUSED: Record<string, string> = {
  'drizzle join without companyId': 'db.select().from(notes).leftJoin(users, eq(users.id, notes.authorUserId));',
  'drizzle join naming only the other companyId':
    'db.select().from(quoteAttachments).innerJoin(files, and(eq(files.id, quoteAttachments.fileId), eq(quoteAttachments.companyId, c)));',
  'drizzle exists() without companyId':
    'conditions.push(exists(tx.select({ one: sql`1` }).from(taskLinks).where(and(eq(taskLinks.taskId, tasks.id)))));',
  'table join without company_id': `sql\`select 1 from events ev join webhook_deliveries d on d.event_id = ev.id where ev.company_id = \${c}\`;`,
  'drizzle tables interpolated': `sql\`select 1 from \${events} ev join \${webhookEndpoints} e on e.id = ev.endpoint_id\`;`,
  'using without company_id': `sql\`select 1 from customers c left join deals using (id) where c.company_id = \${c}\`;`,
  'join to a CTE of unfiltered tenant rows': `sql\`with d as (select id, event_id from webhook_deliveries where status = 'failed')
      select 1 from events ev join d on d.event_id = ev.id where ev.company_id = \${companyId}\`;`,
  'join to a subquery of unfiltered tenant rows': `sql\`select w.id from webhook_endpoints w
      join (select endpoint_id, max(created_at) as at from webhook_deliveries group by endpoint_id) x on x.endpoint_id = w.id
      where w.company_id = \${companyId}\`;`,
  'CTE from a CTE of unfiltered rows': `sql\`with a as (select * from webhook_deliveries), b as (select endpoint_id from a)
      select 1 from webhook_endpoints w join b on b.endpoint_id = w.id where w.company_id = \${companyId}\`;`,
  'both sides pinned, to different values': `sql\`select 1 from events ev join webhook_deliveries d on d.event_id = ev.id where ev.company_id = \${a} and d.company_id = \${b}\`;`,
  'company_id equated only under OR':
    'sql`select 1 from events ev join webhook_deliveries d on d.company_id = ev.company_id or d.event_id = ev.id`;',
  'company_id = any(…) is not one company': `sql\`select 1 from events ev join webhook_deliveries d on d.event_id = ev.id where ev.company_id = any(\${ids}) and d.company_id = any(\${ids})\`;`,
  'comma join': `sql\`select 1 from customers c, deals d where d.customer_id = c.id and c.company_id = \${c}\`;`,
  'correlated subquery without company_id': `sql\`select 1 from deals d where d.company_id = \${c} and exists (select 1 from notes n where n.deal_id = d.id)\`;`,
  'correlated subquery in the select list': `sql\`select d.id, (select count(*) from notes n where n.deal_id = d.id) as notes from deals d where d.company_id = \${c}\`;`,
  'lateral subquery without company_id': `sql\`select 1 from deals d cross join lateral (select * from notes n where n.deal_id = d.id limit 1) n where d.company_id = \${c}\`;`,
  'update … from another tenant table': `sql\`update webhook_deliveries w set status = 'failed' from webhook_endpoints e
      where e.id = w.endpoint_id and w.company_id = \${companyId}\`;`,
  'delete … using another tenant table': `sql\`delete from notes n using deals d where d.id = n.deal_id and d.company_id = \${companyId}\`;`,
  'a fragment whose subquery names the drizzle query around it': `db.select().from(deals).where(sql\`exists (select 1 from \${notes} n where n.deal_id = \${deals.id})\`);`,
  'a fragment of another file with a join': `sql\`select 1 from customers c \${joinDeals} where c.company_id = \${c}\`; const joinDeals = other;`,
  'an inlined fragment': `function healthy(c: string) { return sql\`h as (select w.id from webhook_endpoints w join x on x.endpoint_id = w.id)\`; }
    sql\`with x as (select endpoint_id from webhook_deliveries), \${healthy(c)} select 1 from h\`;`,
};

// Statements the guard must accept: each keeps one company, and each is read (its block counted as checked).
const ACCEPTED: Record<string, string> = {
  'drizzle join on companyId':
    'db.select().from(notes).leftJoin(users, and(eq(users.companyId, notes.companyId), eq(users.id, notes.authorUserId)));',
  'drizzle exists() on companyId':
    'conditions.push(exists(tx.select({ one: sql`1` }).from(taskLinks).where(and(eq(taskLinks.companyId, tasks.companyId), eq(taskLinks.taskId, tasks.id)))));',
  'tables equated':
    'sql`select 1 from events ev join webhook_deliveries d on d.company_id = ev.company_id and d.event_id = ev.id`;',
  'drizzle tables interpolated, equated': `sql\`select 1 from \${events} ev join \${webhookEndpoints} e on e.company_id = ev.company_id\`;`,
  'using (company_id, …)': 'sql`select 1 from customers c left join deals using (company_id, id)`;',
  'companies by its id': 'sql`select 1 from api_keys k join companies c on c.id = k.company_id`;',
  'both sides pinned to the same value, in the WHERE': `sql\`select 1 from events ev join webhook_deliveries d on d.event_id = ev.id where ev.company_id = \${companyId} and d.company_id = \${companyId}::uuid\`;`,
  'CTEs pinned to the same value': `sql\`with input as (select * from json_to_recordset(\${rows}::json) as t(delivery_id text)),
      d as (select w.id, w.endpoint_id from webhook_deliveries w where w.company_id = \${companyId} for update),
      e as (select e.id from webhook_endpoints e where e.company_id = \${companyId} and e.id in (select endpoint_id from d))
      select 1 from input i join d on d.id = i.delivery_id join e on e.id = d.endpoint_id\`;`,
  'subquery pinned to the same value': `sql\`select w.id from webhook_endpoints w
      join (select endpoint_id, max(created_at) as at from webhook_deliveries where company_id = \${companyId} group by endpoint_id) x
        on x.endpoint_id = w.id
      where w.company_id = \${companyId}\`;`,
  'CTE equated on company_id': `sql\`with d as (select * from webhook_deliveries where status = 'failed')
      select 1 from events ev join d on d.company_id = ev.company_id and d.event_id = ev.id\`;`,
  'correlated subquery equated': `sql\`select 1 from deals d where d.company_id = \${c} and exists (select 1 from notes n where n.company_id = d.company_id and n.deal_id = d.id)\`;`,
  'correlated subquery pinned to the same value': `sql\`select 1 from deals d where d.company_id = \${c} and exists (select 1 from notes n where n.company_id = \${c} and n.deal_id = d.id)\`;`,
  'update … from pinned rows': `sql\`update webhook_deliveries w set status = 'failed' from webhook_endpoints e
      where e.company_id = \${companyId} and e.id = w.endpoint_id and w.company_id = \${companyId}\`;`,
  'rows inserted for one company, joined': `sql\`with made as (
        insert into notes (company_id, id, deal_id) select \${companyId}::uuid, id, deal_id from json_to_recordset(\${rows}::json) as t(id uuid, deal_id uuid)
        returning id, deal_id)
      select 1 from deals d join made m on m.deal_id = d.id where d.company_id = \${companyId}\`;`,
  'a fragment naming the drizzle query around it, equated': `db.select().from(deals).where(sql\`exists (select 1 from \${notes} n where n.company_id = \${deals.companyId} and n.deal_id = \${deals.id})\`);`,
  'an inlined fragment, pinned': `function healthy(c: string) { return sql\`h as (select w.id from webhook_endpoints w join x on x.endpoint_id = w.id where w.company_id = \${c})\`; }
    sql\`with x as (select endpoint_id from webhook_deliveries where company_id = \${c}), \${healthy(c)} select 1 from h\`;`,
};

describe('the queries are distributable by company_id', () => {
  it('knows the tenant tables', () => {
    for (const table of ['customers', 'events', 'webhook_deliveries', 'files'])
      expect(tenancy.names.has(table), table).toBe(true);
    expect(tenancy.tables.get('webhookEndpoints')?.name).toBe('webhook_endpoints');
    expect(tenancy.tables.get('webhookDeliveries')?.columns.get('companyId')).toBe('company_id');
    expect(tenancy.names.has('companies')).toBe(false);
  });

  it.each(Object.entries(REFUSED))('refuses %s', (name, source) => {
    // Refused for what it does, not because the reader lost its way: only the unreadable case is unreadable.
    const report = read(source);
    const unreadable = name === 'a fragment of another file with a join';
    expect(report.unreadable.length > 0).toBe(unreadable);
    if (!unreadable) expect([...report.violations, ...report.builderJoins.filter((j) => !j.scoped)]).not.toEqual([]);
  });

  it.each(Object.entries(ACCEPTED))('accepts %s', (_, source) => {
    expect(failures(source)).toEqual([]);
    const report = read(source);
    expect(report.checked.length + report.builderJoins.length, 'the statement was read').toBeGreaterThan(0);
  });

  it('ignores comments and joins outside the tenant tables', () => {
    const source = `
      // a comment that says: join customers on whatever
      sql\`select 1 from pg_index i join pg_attribute k on k.attrelid = i.indrelid\`;
      sql\`select 1 from input i join d on d.id = i.delivery_id -- join deals on nothing
        \`;`;
    expect(failures(source)).toEqual([]);
  });

  it('no statement in src/ joins tenant relations outside one company', () => {
    const root = join(import.meta.dirname, '../..');
    const files = sourceFiles(join(root, 'src'));
    expect(files.length).toBeGreaterThan(100);
    const reports = files.map((path) => readFile(relative(root, path), readFileSync(path, 'utf8'), tenancy));
    // The reader sees src/'s joins: one that matched nothing would pass anything.
    const checked = reports.flatMap((r) => r.checked);
    expect(checked.length).toBeGreaterThanOrEqual(10);
    expect(
      checked.filter((c) => c.relations.some((r) => r.startsWith('subquery') || r.startsWith('outer'))).length,
    ).toBeGreaterThan(0);
    expect(reports.flatMap((r) => r.builderJoins).length).toBeGreaterThanOrEqual(3);
    expect(reports.flatMap((r) => r.violations)).toEqual([]);
    expect(reports.flatMap((r) => r.unreadable)).toEqual([]);
    expect(reports.flatMap((r) => r.builderJoins).filter((j) => !j.scoped)).toEqual([]);
  });
});
