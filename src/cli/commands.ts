// The commands themselves, on an open database; each returns what to print.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { companies } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import { importOrder } from '../resources/orders/import.ts';
import { createCompany, setFeatures, setRateLimits, setSubscription, suspendCompany } from '../services/companies.ts';
import { createKey, renewKey, revokeKey } from '../services/keys.ts';
import { activeStages, replaceStages } from '../services/pipelines.ts';
import type { Command } from './args.ts';
import { createDemo } from './demo.ts';
import {
  companyOutput,
  companyText,
  expiryText,
  keyOutput,
  newKeyText,
  type Output,
  stageOutput,
  stagesText,
} from './output.ts';

type DbCommand = Exclude<Command, { name: 'help' } | { name: 'migrate' }>;

async function findCompany(db: Db, id: string) {
  const [company] = await db
    .select({ id: companies.id, language: companies.language })
    .from(companies)
    .where(eq(companies.id, id));
  if (!company) throw new Error(`no company ${id}`);
  return company;
}

export async function runCommand(db: Db, command: DbCommand): Promise<Output> {
  switch (command.name) {
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
    case 'company limits': {
      const row = await setRateLimits(db, command.id, command.limits);
      return { json: companyOutput(row), text: `Rate limits changed: ${companyText(row)}` };
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
      // One transaction: a file is imported whole or not at all.
      const results = await withTenant(db, command.companyId, async (tx) => {
        const done = [];
        for (const order of command.orders) done.push(await importOrder(tx, command.companyId, order));
        return done;
      });
      const imported = results.filter((r) => r.result === 'imported').length;
      return {
        json: { company_id: command.companyId, imported, existing: results.length - imported, orders: results },
        text: `Imported ${imported} order(s) into company ${command.companyId}; ${results.length - imported} already there.`,
      };
    }
    case 'demo': {
      const demo = await createDemo(db, command.expiresIn);
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
