// The operator commands' arguments, checked before the database is opened so a typo fails at once.
import { accessSync, constants, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isValidRange } from '../auth/ip.ts';
import { type Scope, scopesFrom } from '../auth/scopes.ts';
import {
  kindsByPosition,
  MAX_DAYS_AFTER_DUE,
  MAX_REMINDER_STEPS,
  REMINDER_KINDS,
  type ReminderStep,
  stepsOutOfOrder,
} from '../domain/reminder-schedule.ts';
import { isExemptionReason } from '../domain/vat-exemption.ts';
import { PEPPOL_ID } from '../einvoicing/from-invoice.ts';
import { MOLLIE_KEY } from '../payments/mollie.ts';
import type { ChannelSettingsChange } from '../services/channel-settings.ts';
import {
  type CompanyDetailsChange,
  type ConcurrencyLimitChange,
  featuresFrom,
  type RateLimitChange,
} from '../services/companies.ts';
import { EXPIRIES, type Expiry, OVERLAPS, type Overlap } from '../services/keys.ts';
import type { PaymentProviderChange } from '../services/payment-providers.ts';
import { DEFAULT_PIPELINE, type StageInput, stagesFromJson } from '../services/pipelines.ts';
import type { TailOptions } from './events-tail.ts';

export const USAGE = `usage: npm run cli -- <command> [--json]

  migrate
  company create --name NAME [--features all|LIST] [--language nl|en|de|fr]
  company suspend ID [--unsuspend]
  company subscription ID --active|--inactive
  company features ID --set all|none|LIST
  company stages ID [--file STAGES.json | --default]
  company limits ID [--per-minute N|default] [--per-hour N|default]
             [--uploads N|default] [--pdf-renders N|default] [--batches N|default]
             (per key requests per minute and hour; per company uploads, PDF renders and batch requests in
             progress at once; without options: shows the limits in force and the slots in use)
  company details ID [--legal-name T] [--address T] [--postal-code T] [--city T] [--country CC]
             [--vat-number T] [--coc-number T] [--iban T] [--bic T] [--peppol-id SCHEME:ID]
             [--vat-exemption-reason VATEX-CODE] [--einvoice-attachment auto|always|never]
             (what invoices and e-invoices print; the value none clears one; the UBL in invoice email:
             auto for customers with a VAT number)
  company export ID > FILE.jsonl      the company's complete data as a JSON Lines archive
  company import FILE.jsonl           restores an archive (same ids) into this installation
  company delete ID --confirm NAME    erases every row of the company, in one transaction (and its files in S3)
  company channels ID [--whatsapp-phone-number-id ID] [--whatsapp-token TOKEN] [--whatsapp-app-secret SECRET]
             [--whatsapp-verify-token TOKEN] [--whatsapp-base-url URL] [--new-inbound-secret]
             [--whatsapp-review-template NAME|none] [--whatsapp-review-template-languages LIST]
             (the approved template of WhatsApp review requests; its body's {{1}} is the review link)
  company payments ID [--mollie-key KEY [--mollie-base-url URL] | --none]
             (the company's payment provider for "pay now" on invoices: Mollie's test_ or live_ API key, stored
             encrypted and never shown again; --none removes it; without options: shows the provider in force
             and the webhook address; --mollie-base-url for a local fake: https, or http on a loopback address)
  company reminders ID [--steps DAYS[:KIND],... | --none]
             (the invoice reminder schedule: e.g. --steps 7,14,30 sends a friendly reminder 7 days after the due
             date, a second at 14 and a final notice at 30; kinds friendly|second|final may be given, as in
             7:friendly,21:final; at most 5 steps, days 1 to 365, increasing; --none sends no reminders; without
             options: shows the schedule in force)
  key create --company ID --scopes all|read|LIST [--name NAME] [--expires-in 30d|90d|365d|never]
             [--allow-ip CIDR]...
  key renew ID --overlap none|1h|24h|7d
  key revoke ID
  demo [--expires-in 30d|90d|365d|never]
  events tail [--api-url URL] [--key KEY] [--types LIST] [--since 10m|2h|1d|ISO-TIME]
              [--forward-to URL [--secret whsec_...]] [--interval 2s]
  orders import FILE.json|FILE.jsonl --company ID [--all-or-nothing]
                                         (the contract's Order shape and the API's checks; a bad row is
                                         reported with its line and the others import, or none with
                                         --all-or-nothing; an order number already there is skipped)
  customers import FILE.csv|FILE.jsonl --company ID [--atomic]
             (through the batch upsert of POST /customers/batch, 100 lines per transaction: a line creates the
             customer or updates the one with its id or email; a CSV has a header row of the API's field names,
             an empty cell is a field left out; a line that fails (a CSV line that is no record too) is reported
             and the others import, or none with --atomic; a line naming a customer or email address an earlier
             line named fails as duplicate_in_batch; a progress bar on stderr and a report of the failed lines;
             exit code 1 when a line failed)
  files migrate --to s3|postgres
             (moves every file's bytes into that storage, one file per transaction: resumable, files already
             there are skipped; a progress bar on stderr and the count at the end; set FILE_STORAGE too)

With --json a command prints exactly one JSON object on stdout. Without DATABASE_URL the embedded
PostgreSQL in DATA_DIR (.data) is used. \`events tail\` uses the API instead of the database: its key
(--key, or CRM_API_KEY) and base (--api-url, or CRM_API_URL; default http://127.0.0.1:$PORT/api/v1); with
--json it prints one JSON object per event.`;

/** A mistake in the command line: reported with the usage, exit code 2. */
export class UsageError extends Error {}

const LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
type Language = (typeof LANGUAGES)[number];

export type Command =
  | { name: 'help' }
  | { name: 'migrate'; json: boolean }
  | { name: 'company create'; json: boolean; companyName: string; features: string[]; language: Language }
  | { name: 'company suspend'; json: boolean; id: string; suspended: boolean }
  | { name: 'company subscription'; json: boolean; id: string; active: boolean }
  | { name: 'company features'; json: boolean; id: string; features: string[] }
  | {
      name: 'company limits';
      json: boolean;
      id: string;
      limits: RateLimitChange;
      concurrency: ConcurrencyLimitChange;
    }
  | { name: 'company details'; json: boolean; id: string; details: CompanyDetailsChange }
  | { name: 'company channels'; json: boolean; id: string; change: ChannelSettingsChange }
  | { name: 'company payments'; json: boolean; id: string; change: PaymentProviderChange }
  /** `steps` null: show the schedule. */
  | { name: 'company reminders'; json: boolean; id: string; steps: ReminderStep[] | null }
  /** `stages` null: show the pipeline. */
  | { name: 'company stages'; json: boolean; id: string; stages: StageInput[] | null }
  | { name: 'company export'; json: boolean; id: string }
  | { name: 'company import'; json: boolean; file: string }
  | { name: 'company delete'; json: boolean; id: string; confirm: string }
  | {
      name: 'key create';
      json: boolean;
      companyId: string;
      scopes: Scope[];
      keyName: string;
      expiresIn: Expiry;
      allowedIps: string[];
    }
  | { name: 'key renew'; json: boolean; id: string; overlap: Overlap }
  | { name: 'key revoke'; json: boolean; id: string }
  | { name: 'demo'; json: boolean; expiresIn: Expiry }
  // secret: undefined with --forward-to, a new one is made and printed.
  | ({ name: 'events tail' } & TailOptions)
  | {
      name: 'orders import';
      json: boolean;
      companyId: string;
      allOrNothing: boolean;
      /** The file's elements, not yet checked as orders (commands.ts does, with the API's schema). */
      rows: FileRow[];
    }
  | {
      name: 'customers import';
      json: boolean;
      companyId: string;
      file: string;
      format: 'csv' | 'jsonl';
      atomic: boolean;
    }
  | { name: 'files migrate'; json: boolean; to: 's3' | 'postgres' };

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);
const isExpiry = (value: string): value is Expiry => Object.hasOwn(EXPIRIES, value);
const isOverlap = (value: string): value is Overlap => Object.hasOwn(OVERLAPS, value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const common = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** Parses the words after the command with `options`; unknown options are refused. */
function parse<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...common, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `7,14,30` (kinds by position: kindsByPosition) or `7:friendly,21:final`, checked as the API checks a schedule. */
function reminderSteps(command: string, text: string): ReminderStep[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > MAX_REMINDER_STEPS)
    throw new UsageError(`${command}: --steps takes at most ${MAX_REMINDER_STEPS} steps (got ${parts.length})`);
  const parsed = parts.map((part) => {
    const [days = '', kind, ...more] = part.split(':');
    const day = Number(days);
    if (!/^[0-9]+$/.test(days) || day < 1 || day > MAX_DAYS_AFTER_DUE || more.length > 0)
      throw new UsageError(
        `${command}: "${part}" is not a number of days from 1 to ${MAX_DAYS_AFTER_DUE} (DAYS[:KIND])`,
      );
    const known = REMINDER_KINDS.find((k) => k === kind);
    if (kind !== undefined && !known)
      throw new UsageError(`${command}: "${kind}" is not a kind of reminder (${REMINDER_KINDS.join('|')})`);
    return { day, kind: known };
  });
  const byPosition = kindsByPosition(parsed.map((p) => p.day));
  const steps = byPosition.map((step, i) => ({ ...step, kind: parsed[i]?.kind ?? step.kind }));
  const [wrong] = stepsOutOfOrder(steps);
  if (wrong !== undefined)
    throw new UsageError(`${command}: the days of --steps must increase (${parts[wrong]} after ${parts[wrong - 1]})`);
  return steps;
}

function onePositional(command: string, positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command}: expected one ${what} (got ${positionals.length})`);
  return positionals[0];
}

function companyId(command: string, value: string | undefined): string {
  if (!value) throw new UsageError(`${command}: a company id is required`);
  if (!UUID.test(value)) throw new UsageError(`${command}: "${value}" is not a company id (a UUID)`);
  return value.toLowerCase();
}

function expiry(command: string, value: string): Expiry {
  if (!isExpiry(value))
    throw new UsageError(`${command}: --expires-in must be one of ${Object.keys(EXPIRIES).join(', ')}`);
  return value;
}

/** A per-key request limit: a whole number from 1, or `default` (null: the service's own). */
function rateLimit(command: string, flag: string, value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (!/^[1-9]\d{0,8}$/.test(value))
    throw new UsageError(`${command}: ${flag} must be a whole number from 1, or default`);
  return Number(value);
}

function readText(command: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${command}: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function required(command: string, flag: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${command}: ${flag} is required`);
  return value;
}

/** Runs a list parser (features, scopes) and turns its complaint into a usage error. */
function list<T>(command: string, from: (text: string) => T[], text: string): T[] {
  try {
    return from(text);
  } catch (error) {
    throw new UsageError(`${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function parseCommand(argv: string[]): Command {
  const [group, sub] = argv;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') return { name: 'help' };

  if (group === 'migrate') {
    const { values, positionals } = parse(group, argv.slice(1), {});
    if (values.help) return { name: 'help' };
    if (positionals.length) throw new UsageError(`${group}: unexpected argument "${positionals[0]}"`);
    return { name: group, json: values.json === true };
  }

  if (group === 'demo') {
    // The demo key is a full-access key like any other: it expires (365 days) unless never is asked for.
    const { values, positionals } = parse(group, argv.slice(1), { 'expires-in': { type: 'string', default: '365d' } });
    if (values.help) return { name: 'help' };
    if (positionals.length) throw new UsageError(`${group}: unexpected argument "${positionals[0]}"`);
    return { name: group, json: values.json === true, expiresIn: expiry(group, values['expires-in']) };
  }

  if (group === 'company') {
    const command = `company ${sub ?? ''}`.trim();
    const rest = argv.slice(2);
    switch (sub) {
      case 'create': {
        const { values, positionals } = parse(command, rest, {
          name: { type: 'string' },
          features: { type: 'string', default: 'all' },
          language: { type: 'string', default: 'nl' },
        });
        if (values.help) return { name: 'help' };
        if (positionals.length) throw new UsageError(`${command}: unexpected argument "${positionals[0]}"`);
        const companyName = required(command, '--name', values.name?.trim());
        if (!isLanguage(values.language)) {
          throw new UsageError(`${command}: --language must be one of ${LANGUAGES.join(', ')}`);
        }
        const features = list(command, featuresFrom, values.features);
        return { name: 'company create', json: values.json === true, companyName, features, language: values.language };
      }
      case 'suspend': {
        const { values, positionals } = parse(command, rest, { unsuspend: { type: 'boolean' } });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        return { name: 'company suspend', json: values.json === true, id, suspended: values.unsuspend !== true };
      }
      case 'subscription': {
        const { values, positionals } = parse(command, rest, {
          active: { type: 'boolean' },
          inactive: { type: 'boolean' },
        });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        if (values.active === values.inactive) throw new UsageError(`${command}: give either --active or --inactive`);
        return { name: 'company subscription', json: values.json === true, id, active: values.active === true };
      }
      case 'features': {
        const { values, positionals } = parse(command, rest, { set: { type: 'string' } });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        if (values.set === undefined) throw new UsageError(`${command}: --set LIST is required`);
        return {
          name: 'company features',
          json: values.json === true,
          id,
          features: list(command, featuresFrom, values.set),
        };
      }
      case 'stages': {
        const { values, positionals } = parse(command, rest, {
          file: { type: 'string' },
          default: { type: 'boolean' },
        });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        if (values.file !== undefined && values.default) throw new UsageError(`${command}: give --file or --default`);
        const stages = values.default
          ? DEFAULT_PIPELINE
          : values.file === undefined
            ? null
            : list(command, stagesFromJson, readText(command, values.file));
        return { name: 'company stages', json: values.json === true, id, stages };
      }
      case 'limits': {
        const { values, positionals } = parse(command, rest, {
          'per-minute': { type: 'string' },
          'per-hour': { type: 'string' },
          uploads: { type: 'string' },
          'pdf-renders': { type: 'string' },
          batches: { type: 'string' },
        });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        const limits = {
          perMinute: rateLimit(command, '--per-minute', values['per-minute']),
          perHour: rateLimit(command, '--per-hour', values['per-hour']),
        };
        const concurrency = {
          uploads: rateLimit(command, '--uploads', values.uploads),
          pdf_renders: rateLimit(command, '--pdf-renders', values['pdf-renders']),
          batches: rateLimit(command, '--batches', values.batches),
        };
        // Without options the command shows the limits in force and changes nothing.
        return { name: 'company limits', json: values.json === true, id, limits, concurrency };
      }
      case 'details': {
        const flags = {
          'legal-name': 'legalName',
          address: 'address',
          'postal-code': 'postalCode',
          city: 'city',
          country: 'country',
          'vat-number': 'vatNumber',
          'coc-number': 'cocNumber',
          iban: 'iban',
          bic: 'bic',
          'peppol-id': 'peppolId',
          'vat-exemption-reason': 'vatExemptionReason',
          'einvoice-attachment': 'einvoiceAttachment',
        } as const;
        const options = Object.fromEntries(Object.keys(flags).map((flag) => [flag, { type: 'string' as const }]));
        const { values, positionals } = parse(command, rest, options);
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        const details: CompanyDetailsChange = {};
        for (const [flag, column] of Object.entries(flags)) {
          const raw = values[flag];
          if (typeof raw !== 'string') continue;
          const value = raw.trim() === 'none' ? null : raw.trim();
          if (column === 'country') {
            // The country is always set (documents need it): none does not clear it.
            if (value === null || !/^[A-Za-z]{2}$/.test(value))
              throw new UsageError(`${command}: --country must be an ISO 3166-1 alpha-2 code such as NL`);
            details.country = value.toUpperCase();
            continue;
          }
          if (column === 'einvoiceAttachment') {
            if (value !== 'auto' && value !== 'always' && value !== 'never')
              throw new UsageError(`${command}: --einvoice-attachment must be auto, always or never`);
            details.einvoiceAttachment = value;
            continue;
          }
          if (column === 'vatExemptionReason' && value !== null && !isExemptionReason(value.toUpperCase()))
            throw new UsageError(
              `${command}: --vat-exemption-reason must be a VATEX code of an exemption (VATEX-EU-132-1B, VATEX-EU-143, VATEX-FR-FRANCHISE, …)`,
            );
          if (column === 'vatExemptionReason') {
            details.vatExemptionReason = value?.toUpperCase() ?? null;
            continue;
          }
          if (column === 'peppolId' && value !== null && !PEPPOL_ID.test(value))
            throw new UsageError(
              `${command}: --peppol-id must be SCHEME:ID with a four-digit EAS scheme (0106:24123456)`,
            );
          details[column] = value;
        }
        if (Object.keys(details).length === 0) throw new UsageError(`${command}: give at least one detail to set`);
        return { name: 'company details', json: values.json === true, id, details };
      }
      case 'export': {
        const { values, positionals } = parse(command, rest, {});
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        return { name: 'company export', json: values.json === true, id };
      }
      case 'import': {
        const { values, positionals } = parse(command, rest, {});
        if (values.help) return { name: 'help' };
        return {
          name: 'company import',
          json: values.json === true,
          file: onePositional(command, positionals, 'file'),
        };
      }
      case 'delete': {
        const { values, positionals } = parse(command, rest, { confirm: { type: 'string' } });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        return {
          name: 'company delete',
          json: values.json === true,
          id,
          confirm: required(command, '--confirm', values.confirm),
        };
      }
      case 'channels': {
        const { values, positionals } = parse(command, rest, {
          'whatsapp-phone-number-id': { type: 'string' },
          'whatsapp-token': { type: 'string' },
          'whatsapp-app-secret': { type: 'string' },
          'whatsapp-verify-token': { type: 'string' },
          'whatsapp-base-url': { type: 'string' },
          'new-inbound-secret': { type: 'boolean' },
          'whatsapp-review-template': { type: 'string' },
          'whatsapp-review-template-languages': { type: 'string' },
        });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        const baseUrl = values['whatsapp-base-url'];
        if (baseUrl !== undefined && !/^https?:\/\/\S+$/.test(baseUrl))
          throw new UsageError(`${command}: --whatsapp-base-url is not an http(s) URL`);
        // WhatsApp's template names: lowercase letters, digits and underscores; language codes like `nl`, `en_US`.
        const template = values['whatsapp-review-template'];
        if (template !== undefined && template !== 'none' && !/^[a-z0-9_]{1,512}$/.test(template))
          throw new UsageError(`${command}: --whatsapp-review-template is not a WhatsApp template name (a-z, 0-9, _)`);
        const languages = values['whatsapp-review-template-languages']
          ?.split(',')
          .map((code) => code.trim())
          .filter((code) => code !== '');
        if (languages?.some((code) => !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(code)))
          throw new UsageError(`${command}: --whatsapp-review-template-languages takes codes like nl,en_US,de,fr`);
        const change: ChannelSettingsChange = {
          whatsappPhoneNumberId: values['whatsapp-phone-number-id'],
          whatsappAccessToken: values['whatsapp-token'],
          whatsappAppSecret: values['whatsapp-app-secret'],
          whatsappVerifyToken: values['whatsapp-verify-token'],
          whatsappApiBaseUrl: baseUrl,
          newInboundSecret: values['new-inbound-secret'] === true,
          whatsappReviewTemplate: template === 'none' ? null : template,
          whatsappReviewTemplateLanguages: languages,
        };
        return { name: 'company channels', json: values.json === true, id, change };
      }
      case 'payments': {
        const { values, positionals } = parse(command, rest, {
          'mollie-key': { type: 'string' },
          'mollie-base-url': { type: 'string' },
          none: { type: 'boolean' },
        });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        const key = values['mollie-key'];
        const baseUrl = values['mollie-base-url'];
        const json = values.json === true;
        if (values.none && (key !== undefined || baseUrl !== undefined))
          throw new UsageError(`${command}: --none takes no --mollie-key or --mollie-base-url`);
        if (values.none) return { name: 'company payments', json, id, change: { kind: 'none' } };
        if (key === undefined) {
          if (baseUrl !== undefined) throw new UsageError(`${command}: --mollie-base-url needs --mollie-key`);
          return { name: 'company payments', json, id, change: { kind: 'show' } };
        }
        // The message never repeats the key: a command line ends up in logs and terminals' scrollback.
        if (!MOLLIE_KEY.test(key))
          throw new UsageError(
            `${command}: --mollie-key is not a Mollie API key (test_… or live_… and 30 letters or digits)`,
          );
        if (baseUrl !== undefined && !mollieBaseUrlAllowed(baseUrl))
          throw new UsageError(
            `${command}: --mollie-base-url must be an https URL (or http on 127.0.0.1, ::1 or localhost)`,
          );
        return {
          name: 'company payments',
          json,
          id,
          change: { kind: 'mollie', apiKey: key, baseUrl: baseUrl ?? null },
        };
      }
      case 'reminders': {
        const { values, positionals } = parse(command, rest, { steps: { type: 'string' }, none: { type: 'boolean' } });
        if (values.help) return { name: 'help' };
        const id = companyId(command, onePositional(command, positionals, 'company id'));
        const json = values.json === true;
        if (values.none && values.steps !== undefined) throw new UsageError(`${command}: --none takes no --steps`);
        if (values.none) return { name: 'company reminders', json, id, steps: [] };
        if (values.steps === undefined) return { name: 'company reminders', json, id, steps: null };
        return { name: 'company reminders', json, id, steps: reminderSteps(command, values.steps) };
      }
      default:
        throw new UsageError(
          `unknown command "${command}" (company create|suspend|subscription|features|stages|limits|details|channels|payments|reminders|export|import|delete)`,
        );
    }
  }

  if (group === 'key') {
    const command = `key ${sub ?? ''}`.trim();
    const rest = argv.slice(2);
    switch (sub) {
      case 'create': {
        const { values, positionals } = parse(command, rest, {
          company: { type: 'string' },
          scopes: { type: 'string' },
          name: { type: 'string', default: 'CLI key' },
          'expires-in': { type: 'string', default: '365d' },
          'allow-ip': { type: 'string', multiple: true, default: [] },
        });
        if (values.help) return { name: 'help' };
        if (positionals.length) throw new UsageError(`${command}: unexpected argument "${positionals[0]}"`);
        const scopes = list(command, scopesFrom, required(command, '--scopes', values.scopes));
        if (scopes.length === 0) throw new UsageError(`${command}: --scopes names no scope`);
        const expiresIn = expiry(command, values['expires-in']);
        const allowedIps = values['allow-ip'].map((ip) => ip.trim());
        const invalid = allowedIps.filter((ip) => !isValidRange(ip));
        if (invalid.length) {
          throw new UsageError(`${command}: not an IP address or CIDR range: ${invalid.join(', ')}`);
        }
        const keyName = values.name.trim();
        if (!keyName) throw new UsageError(`${command}: --name must not be empty`);
        return {
          name: 'key create',
          json: values.json === true,
          companyId: companyId(command, values.company),
          scopes,
          keyName,
          expiresIn,
          allowedIps,
        };
      }
      case 'renew': {
        const { values, positionals } = parse(command, rest, { overlap: { type: 'string' } });
        if (values.help) return { name: 'help' };
        const id = onePositional(command, positionals, 'key id');
        const overlap = required(command, '--overlap', values.overlap);
        if (!isOverlap(overlap)) {
          throw new UsageError(`${command}: --overlap must be one of ${Object.keys(OVERLAPS).join(', ')}`);
        }
        return { name: 'key renew', json: values.json === true, id, overlap };
      }
      case 'revoke': {
        const { values, positionals } = parse(command, rest, {});
        if (values.help) return { name: 'help' };
        return { name: 'key revoke', json: values.json === true, id: onePositional(command, positionals, 'key id') };
      }
      default:
        throw new UsageError(`unknown command "${command}" (key create|renew|revoke)`);
    }
  }

  if (group === 'events') {
    const command = `events ${sub ?? ''}`.trim();
    if (sub !== 'tail') throw new UsageError(`unknown command "${command}" (events tail)`);
    return eventsTail(command, argv.slice(2));
  }

  if (group === 'orders') {
    const command = `orders ${sub ?? ''}`.trim();
    if (sub !== 'import') throw new UsageError(`unknown command "${command}" (orders import)`);
    const { values, positionals } = parse(command, argv.slice(2), {
      company: { type: 'string' },
      'all-or-nothing': { type: 'boolean' },
    });
    if (values.help) return { name: 'help' };
    const path = onePositional(command, positionals, 'file');
    return {
      name: 'orders import',
      json: values.json === true,
      companyId: companyId(command, values.company),
      allOrNothing: values['all-or-nothing'] === true,
      rows: rowsOf(command, path, readText(command, path)),
    };
  }

  if (group === 'customers') {
    const command = `customers ${sub ?? ''}`.trim();
    if (sub !== 'import') throw new UsageError(`unknown command "${command}" (customers import)`);
    const { values, positionals } = parse(command, argv.slice(2), {
      company: { type: 'string' },
      atomic: { type: 'boolean' },
    });
    if (values.help) return { name: 'help' };
    const file = onePositional(command, positionals, 'file');
    const format = file.toLowerCase().endsWith('.csv') ? 'csv' : file.toLowerCase().endsWith('.jsonl') ? 'jsonl' : null;
    if (format === null) throw new UsageError(`${command}: the file must end in .csv or .jsonl (got ${file})`);
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      throw new UsageError(
        `${command}: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return {
      name: 'customers import',
      json: values.json === true,
      companyId: companyId(command, values.company),
      file,
      format,
      atomic: values.atomic === true,
    };
  }

  if (group === 'files') {
    const command = `files ${sub ?? ''}`.trim();
    if (sub !== 'migrate') throw new UsageError(`unknown command "${command}" (files migrate)`);
    const { values, positionals } = parse(command, argv.slice(2), { to: { type: 'string' } });
    if (values.help) return { name: 'help' };
    if (positionals.length) throw new UsageError(`${command}: unexpected argument "${positionals[0]}"`);
    const to = required(command, '--to', values.to);
    if (to !== 's3' && to !== 'postgres') throw new UsageError(`${command}: --to must be s3 or postgres`);
    return { name: 'files migrate', json: values.json === true, to };
  }

  throw new UsageError(`unknown command "${group}"`);
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function durationMs(command: string, flag: string, value: string): number {
  const match = DURATION.exec(value);
  if (!match) throw new UsageError(`${command}: ${flag} must be a duration like 500ms, 2s, 10m, 1h or 1d`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

function httpUrl(command: string, flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${command}: ${flag} is not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${command}: ${flag} must be an http or https URL`);
  }
  return value;
}

function eventsTail(command: string, rest: string[]): Command {
  const { values, positionals } = parse(command, rest, {
    'api-url': { type: 'string' },
    key: { type: 'string' },
    types: { type: 'string' },
    since: { type: 'string' },
    'forward-to': { type: 'string' },
    secret: { type: 'string' },
    interval: { type: 'string', default: '2s' },
  });
  if (values.help) return { name: 'help' };
  if (positionals.length) throw new UsageError(`${command}: unexpected argument "${positionals[0]}"`);
  const apiKey = values.key ?? process.env.CRM_API_KEY;
  if (!apiKey) throw new UsageError(`${command}: give the API key with --key or CRM_API_KEY`);
  const apiUrl = httpUrl(
    command,
    '--api-url',
    values['api-url'] ?? process.env.CRM_API_URL ?? `http://127.0.0.1:${process.env.PORT || 3000}/api/v1`,
  );
  if (values.types !== undefined && !/^[a-z_]+\.[a-z_]+(,[a-z_]+\.[a-z_]+)*$/.test(values.types)) {
    throw new UsageError(`${command}: --types must be a comma-separated list of event types (deal.won,deal.lost)`);
  }
  let since: Date | undefined;
  if (values.since !== undefined) {
    since = DURATION.test(values.since)
      ? new Date(Date.now() - durationMs(command, '--since', values.since))
      : new Date(values.since);
    if (Number.isNaN(since.getTime())) {
      throw new UsageError(`${command}: --since must be a duration (10m, 2h, 1d) or a date-time`);
    }
  }
  if (values.secret !== undefined && values['forward-to'] === undefined) {
    throw new UsageError(`${command}: --secret signs forwarded events: give --forward-to too`);
  }
  if (values.secret !== undefined && !/^whsec_[A-Za-z0-9+/]{24,}={0,2}$/.test(values.secret)) {
    throw new UsageError(`${command}: --secret must be a signing secret whsec_<base64>`);
  }
  const intervalMs = durationMs(command, '--interval', values.interval);
  if (intervalMs < 200) throw new UsageError(`${command}: --interval must be at least 200ms`);
  return {
    name: 'events tail',
    json: values.json === true,
    apiUrl,
    apiKey,
    types: values.types,
    since,
    forwardTo: values['forward-to'] === undefined ? undefined : httpUrl(command, '--forward-to', values['forward-to']),
    secret: values.secret,
    intervalMs,
  };
}

/** An element of an import file with the line it starts on; undefined: a JSON Lines line that is not JSON. */
export type FileRow = { line: number; value: unknown };

/**
 * The line each element of the file's list of orders starts on: the elements of the top-level array, or of the
 * array under `orders` (a JSON scan that skips strings, so brackets inside text do not count).
 */
function elementLines(text: string, listDepth: number): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (expectValue && !/\s/.test(ch) && ch !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (ch === '[' && depth === listDepth) expectValue = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === listDepth) expectValue = true;
  }
  return lines;
}

/** The rows of a JSON file (a list of orders, or `{ "orders": [...] }`) or a JSON Lines file, with their lines. */
function rowsOf(command: string, path: string, text: string): FileRow[] {
  if (path.endsWith('.jsonl')) {
    return text.split('\n').flatMap((content, i) => {
      if (content.trim() === '') return [];
      try {
        return [{ line: i + 1, value: JSON.parse(content) as unknown }];
      } catch {
        return [{ line: i + 1, value: undefined }];
      }
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${command}: ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const wrapped = json !== null && typeof json === 'object' && !Array.isArray(json);
  const list = wrapped ? (json as Record<string, unknown>).orders : json;
  if (!Array.isArray(list) || (wrapped && Object.keys(json as object).length !== 1))
    throw new UsageError(`${command}: ${path} is neither a list of orders nor { "orders": [...] }`);
  const lines = elementLines(text, wrapped ? 2 : 1);
  return list.map((value, i) => ({ line: lines[i] ?? 0, value }));
}

/** A provider's API root the key may be sent to: https anywhere, plain http only to this machine (a fake). */
function mollieBaseUrlAllowed(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}
