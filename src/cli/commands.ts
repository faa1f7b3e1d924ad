// The commands themselves, on an open database; each returns what to print.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import { DEFAULT_GRAPH_API } from '../channels/whatsapp.ts';
import type { Config } from '../config.ts';
import type { Db, Sql } from '../db/client.ts';
import { companies } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import { CONCURRENCY_KINDS, type ConcurrencyKind } from '../domain/concurrency-kinds.ts';
import { identifierProblems } from '../domain/identifiers.ts';
import type { FileStorages } from '../files/storages.ts';
import { ConcurrencyLimits, defaultConcurrencyLimits } from '../http/concurrency.ts';
import { localize } from '../http/message-catalogue.ts';
import { paymentSecretBox } from '../payments/secret-box.ts';
import { reminderSteps, setReminderSteps } from '../resources/company/queries.ts';
import { serializeReminderSchedule } from '../resources/company/serialize.ts';
import { identifierMessage } from '../resources/customers/input.ts';
import { type BadImportRow, BadRow, checkedRows, type ImportResult, importOrder } from '../resources/orders/import.ts';
import { setChannelSettings } from '../services/channel-settings.ts';
import {
  type CompanyDetailsChange,
  createCompany,
  setCompanyDetails,
  setConcurrencyLimits,
  setFeatures,
  setRateLimits,
  setSubscription,
  suspendCompany,
} from '../services/companies.ts';
import { deleteCompany, exportCompany, importCompany } from '../services/company-archive.ts';
import { migrateFiles } from '../services/file-migration.ts';
import { createKey, renewKey, revokeKey } from '../services/keys.ts';
import { setPaymentProvider } from '../services/payment-providers.ts';
import { activeStages, replaceStages } from '../services/pipelines.ts';
import type { Command } from './args.ts';
import { importCustomers, importText } from './customers-import.ts';
import { createDemo } from './demo.ts';
import { migrateWithProgress } from './files-migrate.ts';
import {
  companyOutput,
  companyText,
  concurrencyInForce,
  expiryText,
  keyOutput,
  limitsInForce,
  newKeyText,
  type Output,
  stageOutput,
  stagesText,
} from './output.ts';

type DbCommand = Exclude<Command, { name: 'help' } | { name: 'migrate' } | { name: 'events tail' }>;

/** Where `company export` writes its lines (standard output; awaited, so a slow pipe holds the reading back). */
export type LineWriter = (line: string) => Promise<void>;

async function findCompany(db: Db, id: string) {
  const [company] = await db
    .select({ id: companies.id, language: companies.language })
    .from(companies)
    .where(eq(companies.id, id));
  if (!company) throw new Error(`no company ${id}`);
  return company;
}

/** The CLI's way into the installation: its pools and its file storages (FILE_STORAGE, S3_*). */
/** The database pools and storages a command uses, and the installation's PUBLIC_URL (the demo's events). */
export type CliPools = {
  db: Db;
  sql: Sql;
  tenantSql: Sql;
  fileStorages: FileStorages;
  config: Pick<
    Config,
    'publicUrl' | 'DATABASE_POOL_SIZE' | 'PDF_RENDER_THREADS' | 'PDF_RENDER_QUEUE' | 'PAYMENT_KEYS_SECRET'
  >;
};

export async function runCommand(
  { db, sql, tenantSql, fileStorages: storages, config }: CliPools,
  command: DbCommand,
  writeLine: LineWriter,
  // Where progress bars go (the process's stderr, or a test's).
  progress: NodeJS.WritableStream = process.stderr,
): Promise<Output | null> {
  switch (command.name) {
    case 'company export': {
      await exportCompany(sql, command.id, writeLine, storages);
      return null;
    }
    case 'company import': {
      const lines = createInterface({ input: createReadStream(command.file), crlfDelay: Number.POSITIVE_INFINITY });
      const { companyId, counts } = await importCompany(sql, lines);
      const rows = Object.values(counts).reduce((a, b) => a + b, 0);
      // The archive's files arrive in PostgreSQL; an installation keeping files in S3 moves them there (a failure
      // leaves them served from PostgreSQL, and `files migrate` finishes the move).
      const moved = await migrateFiles({ db, tenantSql }, storages, storages.current.name, { companyId });
      return {
        json: { company_id: companyId, rows: counts, files_moved: moved.moved },
        text: `Imported company ${companyId}: ${rows} rows.`,
      };
    }
    case 'company delete': {
      const { counts } = await deleteCompany(sql, command.id, command.confirm);
      const rows = Object.values(counts).reduce((a, b) => a + b, 0);
      // The bytes in S3 go once the rows are gone; what this misses the orphan sweep removes.
      if (storages.s3) await storages.s3.removeCompany(command.id);
      return {
        json: { company_id: command.id, deleted: true, rows: counts },
        text: `Deleted company ${command.id} and its ${rows} rows.`,
      };
    }
    case 'company create': {
      const row = await createCompany(db, {
        name: command.companyName,
        features: command.features,
        language: command.language,
      });
      return { json: companyOutput(row), text: `Created ${companyText(row)}` };
    }
    case 'company suspend': {
      const row = await suspendCompany(db, command.id, command.suspended);
      return {
        json: companyOutput(row),
        text: `${command.suspended ? 'Suspended' : 'Unsuspended'} ${companyText(row)}`,
      };
    }
    case 'company subscription': {
      const row = await setSubscription(db, command.id, command.active);
      return { json: companyOutput(row), text: `Subscription changed: ${companyText(row)}` };
    }
    case 'company features': {
      const row = await setFeatures(db, command.id, command.features);
      return { json: companyOutput(row), text: `Features changed: ${companyText(row)}` };
    }
    case 'company details': {
      const refused = await refusedIdentifiers(db, command.id, command.details);
      if (refused.length > 0) {
        return {
          json: { error: 'invalid_identifier', errors: refused },
          text: refused.map((r) => `error: --${r.flag}: ${r.detail}`).join('\n'),
          exitCode: 2,
        };
      }
      const row = await setCompanyDetails(db, command.id, command.details);
      return { json: companyOutput(row), text: `Details changed: ${companyText(row)}` };
    }
    case 'company limits': {
      const changes = command.limits.perMinute !== undefined || command.limits.perHour !== undefined;
      const concurrencyChanges = Object.values(command.concurrency).some((value) => value !== undefined);
      if (changes) await setRateLimits(db, command.id, command.limits);
      if (concurrencyChanges) await setConcurrencyLimits(db, command.id, command.concurrency);
      const [row] = await db.select().from(companies).where(eq(companies.id, command.id));
      if (!row) throw new Error(`no company ${command.id}`);
      const inForce = limitsInForce(row);
      const slots = new ConcurrencyLimits(sql, defaultConcurrencyLimits(config));
      const concurrency = concurrencyInForce(row, slots.defaults);
      const inUse = await slots.inUse(command.id);
      const own = (kind: ConcurrencyKind) => (row.concurrencyLimits[kind] === undefined ? ' (default)' : '');
      return {
        json: {
          ...companyOutput(row),
          rate_limits_in_force: inForce,
          concurrency_limits_in_force: concurrency,
          concurrency_slots_in_use: inUse,
        },
        text: [
          changes || concurrencyChanges ? `Limits changed: ${companyText(row)}` : companyText(row),
          `  in force:     per key ${inForce.per_minute}/minute${row.rateLimitPerMinute === null ? ' (default)' : ''}, ${inForce.per_hour}/hour${row.rateLimitPerHour === null ? ' (default)' : ''}`,
          ...CONCURRENCY_KINDS.map(
            (kind) => `  at once:      ${kind} ${concurrency[kind]}${own(kind)}, ${inUse[kind]} in use now`,
          ),
        ].join('\n'),
      };
    }
    case 'company channels': {
      const company = await findCompany(db, command.id);
      const { row, inboundSecret } = await setChannelSettings(db, company.id, command.change);
      const json = {
        company_id: company.id,
        widget_id: row.widgetId,
        whatsapp_phone_number_id: row.whatsappPhoneNumberId,
        whatsapp_base_url: row.whatsappApiBaseUrl ?? DEFAULT_GRAPH_API,
        whatsapp_sends: row.whatsappPhoneNumberId !== null && row.whatsappAccessToken !== null,
        whatsapp_webhook_verifies: row.whatsappAppSecret !== null,
        whatsapp_review_template: row.whatsappReviewTemplate,
        whatsapp_review_template_languages: row.whatsappReviewTemplateLanguages,
        inbound_email_secret: inboundSecret ?? null,
      };
      const text = [
        `Channels of ${company.id}: widget id ${row.widgetId}`,
        json.whatsapp_sends
          ? `WhatsApp sends from ${row.whatsappPhoneNumberId} through ${json.whatsapp_base_url}`
          : 'WhatsApp: not configured (messages are recorded, not sent)',
        row.whatsappReviewTemplate
          ? `WhatsApp review requests use template ${row.whatsappReviewTemplate} (${row.whatsappReviewTemplateLanguages.join(', ') || "the request's language"})`
          : "WhatsApp review requests: no template (only within 24 hours of the customer's last message)",
        ...(inboundSecret ? [`New inbound email secret (shown once): ${inboundSecret}`] : []),
      ].join('\n');
      return { json, text };
    }
    case 'company payments': {
      const company = await findCompany(db, command.id);
      const box = await paymentSecretBox(config, sql);
      const view = await setPaymentProvider(db, company.id, command.change, box, config.publicUrl);
      const changed = command.change.kind !== 'show';
      const text = view.provider
        ? [
            `${changed ? 'Payment provider set' : 'Payment provider'} of ${company.id}: Mollie (${view.mode} key, stored encrypted; not shown again)`,
            `  API:     ${view.api_base_url}`,
            `  webhook: ${view.webhook_url}`,
            '  Invoices that are sent, partly paid or overdue now offer "pay now" on their page and in their email.',
          ].join('\n')
        : `${changed ? 'Payment provider removed' : 'No payment provider'} for ${company.id}: invoices offer bank transfer only.`;
      return { json: view, text };
    }
    case 'company reminders': {
      const company = await findCompany(db, command.id);
      const { steps } = command;
      const inForce = await withTenant(db, company.id, (tx) =>
        steps ? setReminderSteps(tx, company.id, steps) : reminderSteps(tx, company.id),
      );
      const changed = steps !== null;
      const text =
        inForce.length === 0
          ? `${changed ? 'Invoice reminders turned off' : 'No invoice reminders'} for ${company.id}.`
          : [
              `${changed ? 'Invoice reminders set' : 'Invoice reminders'} of ${company.id}:`,
              ...inForce.map((step) => `  ${step.kind.padEnd(8)} ${step.days_after_due} days after the due date`),
            ].join('\n');
      return { json: { company_id: company.id, ...serializeReminderSchedule(inForce) }, text };
    }
    case 'company stages': {
      const company = await findCompany(db, command.id);
      const { stages, deactivated, deleted } = command.stages
        ? await replaceStages(db, company.id, command.stages)
        : {
            stages: await withTenant(db, company.id, (tx) => activeStages(tx, company.id)),
            deactivated: [],
            deleted: [],
          };
      return {
        json: {
          company_id: company.id,
          stages: stages.map((row) => stageOutput(row, company.language)),
          deactivated_stage_ids: deactivated.map(String),
          deleted_stage_ids: deleted.map(String),
        },
        text: stagesText(company.id, stages, company.language, command.stages !== null, { deactivated, deleted }),
      };
    }
    case 'key create': {
      await findCompany(db, command.companyId);
      const { key, row } = await createKey(db, {
        companyId: command.companyId,
        name: command.keyName,
        scopes: command.scopes,
        expiresIn: command.expiresIn,
        allowedIps: command.allowedIps,
      });
      return { json: keyOutput(row, key), text: newKeyText(row, key) };
    }
    case 'key renew': {
      const { key, row } = await renewKey(db, command.id, command.overlap);
      const until = command.overlap === 'none' ? 'stopped working now' : `keeps working for ${command.overlap}`;
      return { json: keyOutput(row, key), text: `${newKeyText(row, key)}\n\nThe old key ${command.id} ${until}.` };
    }
    case 'key revoke': {
      const row = await revokeKey(db, command.id);
      const revokedAt = row.revokedAt?.toISOString() ?? null;
      return {
        json: { id: row.id, company_id: row.companyId, revoked_at: revokedAt },
        text: `Revoked key ${row.id} (${row.prefix}…) of company ${row.companyId} at ${revokedAt}.`,
      };
    }
    case 'orders import': {
      await findCompany(db, command.companyId);
      const { results, badRows } = await importOrders(db, command);
      const imported = results.filter((r) => r.result === 'imported').length;
      const existing = results.length - imported;
      const refused = badRows.map(
        (row) => `  line ${row.line}${row.number ? ` (order ${row.number})` : ''}: ${row.reason}`,
      );
      const summary =
        command.allOrNothing && badRows.length > 0
          ? `Imported nothing into company ${command.companyId} (--all-or-nothing): ${badRows.length} bad row(s).`
          : `Imported ${imported} order(s) into company ${command.companyId}; ${existing} already there; ${badRows.length} bad row(s).`;
      return {
        json: {
          company_id: command.companyId,
          imported,
          existing,
          orders: results,
          bad_rows: badRows,
        },
        text: [summary, ...refused].join('\n'),
        exitCode: badRows.length > 0 ? 1 : 0,
      };
    }
    case 'files migrate': {
      const count = await migrateWithProgress({ db, tenantSql }, storages, command.to, progress);
      return {
        json: { to: command.to, ...count },
        text:
          `${count.files} file(s): ${count.moved} moved to ${command.to}, ${count.already} there already` +
          `${count.skipped ? `, ${count.skipped} deleted or moved meanwhile` : ''}.`,
      };
    }
    case 'customers import': {
      await findCompany(db, command.companyId);
      const report = await importCustomers(db, command.companyId, command.file, command.format, {
        atomic: command.atomic,
        progress,
      });
      return {
        json: { company_id: command.companyId, ...report },
        text: importText(command.file, report),
        exitCode: report.failed > 0 ? 1 : 0,
      };
    }
    case 'demo': {
      const demo = await createDemo(db, command.expiresIn, storages, config.publicUrl);
      return {
        json: { company_id: demo.companyId, key: demo.key },
        text: [
          `Demo company ${demo.companyId} created (Installatiebedrijf Van Dijk).`,
          `Its full-access API key (shown only now; ${expiryText(demo.expiresAt)}):`,
          `  ${demo.key}`,
        ].join('\n'),
      };
    }
  }
}

class RolledBack extends Error {}

/**
 * The file's good rows, each in a savepoint of one transaction: a row refused while importing (another company's
 * invoice) is reported and the rest go on. With --all-or-nothing, a bad row anywhere imports nothing.
 */
async function importOrders(
  db: Db,
  command: Extract<DbCommand, { name: 'orders import' }>,
): Promise<{ results: ImportResult[]; badRows: BadImportRow[] }> {
  const { orders, badRows } = checkedRows(command.rows);
  if (command.allOrNothing && badRows.length > 0) return { results: [], badRows };
  const results: ImportResult[] = [];
  const outcome = await withTenant(db, command.companyId, async (tx) => {
    for (const { line, order } of orders) {
      try {
        results.push(await tx.transaction((row) => importOrder(row, command.companyId, order)));
      } catch (error) {
        if (!(error instanceof BadRow)) throw error;
        badRows.push({ line, number: order.number, reason: error.message });
        // Thrown, not returned: the transaction must roll back what the rows before imported.
        if (command.allOrNothing) throw new RolledBack();
      }
    }
    return 'done' as const;
  }).catch((error: unknown) => {
    if (error instanceof RolledBack) return 'rolled back' as const;
    throw error;
  });
  badRows.sort((a, b) => a.line - b.line);
  return { results: outcome === 'done' ? results : [], badRows };
}

/**
 * The company's identifiers among `details` that break their rules (src/domain/identifiers.ts), each with its flag,
 * rule and text. The CoC number is judged by the country it will have: a Belgian company's is an enterprise number
 * with check digits, so a Belgian company with a KvK number is refused (PEPPOL-COMMON-R043) whichever is set last.
 */
async function refusedIdentifiers(db: Db, id: string, details: CompanyDetailsChange) {
  const [stored] = await db
    .select({ country: companies.country, cocNumber: companies.cocNumber })
    .from(companies)
    .where(eq(companies.id, id));
  const problems = identifierProblems({
    country: details.country ?? stored?.country ?? null,
    vat_number: details.vatNumber,
    coc_number: details.cocNumber !== undefined ? details.cocNumber : details.country ? stored?.cocNumber : undefined,
    iban: details.iban,
    bic: details.bic,
    peppol_id: details.peppolId,
  });
  return problems.map(({ field, rule }) => ({
    flag: field.replace('_', '-'),
    field,
    rule,
    detail: localize(identifierMessage(rule), 'en'),
  }));
}
