// The queries stay distributable by company (docs/scaling.md: Citus with company_id as the distribution column):
// a join that reaches a tenant table matches company_id in its condition, so that Citus can run it on the one
// node holding the company (a co-located join). The SQL of src/ is scanned: drizzle's innerJoin/leftJoin/
// rightJoin/fullJoin calls (the condition must name the joined table's companyId) and the joins of raw SQL
// (`join <table> [alias] on|using …` where <table> is a tenant table by name or a drizzle table interpolated as
// `${table}`: the condition must mention company_id). Joins to CTEs, subqueries and lateral subqueries are left
// to the statement: each of those in src/ filters its own tenant rows by company_id. Comma joins (`from a, b`)
// are not used in src/ and not recognised here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema/index.ts';

/** Tenant tables: the SQL names, and the names of their drizzle objects (as src/ imports them). */
function tenantTables() {
  const names = new Set<string>();
  const variables = new Set<string>();
  for (const [exported, value] of Object.entries(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    if (!config.columns.some((c) => c.name === 'company_id')) continue;
    names.add(config.name);
    variables.add(exported);
  }
  return { names, variables };
}

type TenantJoin = { file: string; line: number; join: string; scoped: boolean };

/** The text of the balanced parentheses that open at `open` (its index), without them. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** A raw join's condition: from `on`/`using` up to the next clause or join at the same depth. */
function rawCondition(text: string, from: number): string {
  const stop = /^(join|left|right|full|inner|cross|where|group|order|limit|union|returning|having|window|for)\b/i;
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) return text.slice(from, i);
      depth--;
    } else if (ch === '`' || ch === ';') return text.slice(from, i);
    else if (depth === 0 && /\s/.test(text[i - 1] ?? ' ') && stop.test(text.slice(i, i + 10)))
      return text.slice(from, i);
  }
  return text.slice(from);
}

/** The joins of `source` that reach a tenant table, and whether their condition matches company_id. */
function tenantJoins(
  file: string,
  source: string,
  tenant: { names: Set<string>; variables: Set<string> },
): TenantJoin[] {
  const found: TenantJoin[] = [];
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  // Comments are not queries: blank them, keeping offsets (and so line numbers) in place.
  const text = source.replace(/\/\*[\s\S]*?\*\/|(?<=^|\s)\/\/[^\n]*|(?<=\s)--[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));

  for (const m of text.matchAll(/\.(inner|left|right|full)Join\(\s*(\w+)\s*,/g)) {
    const table = m[2] ?? '';
    if (!tenant.variables.has(table)) continue;
    const call = balanced(text, (m.index ?? 0) + m[0].indexOf('('));
    const condition = call.slice(call.indexOf(',') + 1);
    const scoped = new RegExp(`\\b${table}\\.companyId\\b`).test(condition);
    found.push({ file, line: lineOf(m.index ?? 0), join: `${m[1]}Join(${table}, …)`, scoped });
  }

  const raw =
    /\bjoin\s+(?:\$\{\s*(\w+)\s*\}|(?:public\.)?([a-z_][a-z0-9_]*))(?:\s+(?:as\s+)?(?!on\b|using\b)[a-z_]\w*)?\s+(on|using)\b/gi;
  for (const m of text.matchAll(raw)) {
    const reaches = m[1] ? tenant.variables.has(m[1]) : tenant.names.has((m[2] ?? '').toLowerCase());
    if (!reaches) continue;
    const condition = rawCondition(text, (m.index ?? 0) + m[0].length);
    const scoped = /\bcompany_id\b|\.companyId\b/.test(condition);
    const join = `${m[0]}${condition}`.replace(/\s+/g, ' ').trim();
    found.push({ file, line: lineOf(m.index ?? 0), join, scoped });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const tenant = tenantTables();
const unscoped = (file: string, source: string) => tenantJoins(file, source, tenant).filter((j) => !j.scoped);

describe('the queries are distributable by company_id', () => {
  it('knows the tenant tables', () => {
    for (const table of ['customers', 'events', 'webhook_deliveries', 'files'])
      expect(tenant.names.has(table), table).toBe(true);
    expect(tenant.variables.has('webhookEndpoints')).toBe(true);
    expect(tenant.names.has('companies')).toBe(false);
  });

  it('finds a join without company_id, in drizzle and in raw SQL, and accepts the scoped forms', () => {
    const bad = `
      db.select().from(notes).leftJoin(users, eq(users.id, notes.authorUserId));
      db.select().from(quoteAttachments).innerJoin(files, and(eq(files.id, quoteAttachments.fileId)));
      sql\`select * from events ev join webhook_deliveries d on d.event_id = ev.id where ev.company_id = \${c}\`;
      sql\`select 1 from \${events} ev join \${webhookEndpoints} e on e.id = ev.endpoint_id\`;
      sql\`select 1 from customers c left join deals using (id) where c.company_id = \${c}\`;
      sql\`select 1 from customers c
        inner join public.deals as d
          on d.customer_id = c.id
        where c.company_id = \${c}\`;`;
    expect(unscoped('bad.ts', bad).map((v) => v.line)).toEqual([2, 3, 4, 5, 6, 8]);

    const good = `
      db.select().from(notes).leftJoin(users, and(eq(users.companyId, notes.companyId), eq(users.id, notes.authorUserId)));
      db.select().from(companies).leftJoin(appointmentSettings, eq(appointmentSettings.companyId, companies.id));
      sql\`select 1 from events ev join webhook_deliveries d on d.company_id = ev.company_id and d.event_id = ev.id\`;
      sql\`select 1 from \${events} ev join \${webhookEndpoints} e on e.company_id = ev.company_id\`;
      sql\`select 1 from customers c left join deals using (company_id, id)\`;
      // a comment that says: join customers on whatever
      sql\`select 1 from api_keys k join companies c on c.id = k.company_id\`;
      sql\`select 1 from input i join d on d.id = i.delivery_id\`;
      sql\`select 1 from pg_index i join pg_attribute k on k.attrelid = i.indrelid\`;`;
    expect(unscoped('good.ts', good)).toEqual([]);
    expect(tenantJoins('good.ts', good, tenant).length).toBe(5);
  });

  it('no join in src/ reaches a tenant table without company_id', () => {
    const root = join(import.meta.dirname, '../..');
    const files = sourceFiles(join(root, 'src'));
    expect(files.length).toBeGreaterThan(100);
    const joins = files.flatMap((path) => tenantJoins(relative(root, path), readFileSync(path, 'utf8'), tenant));
    // The scan sees src/'s joins (drizzle's and raw SQL's): a scanner that matched nothing would pass anything.
    expect(joins.length).toBeGreaterThanOrEqual(8);
    expect(joins.filter((j) => !j.scoped)).toEqual([]);
  });
});
