// Every new company gets the default pipeline in the transaction that creates it, so POST /deals works at once;
// the operator replaces it (CLI `company stages`, services/pipelines.ts) without leaving a deal in a stage that
// is gone: stages with open deals are refused, stages with closed deals deactivated, unused ones deleted. The
// contract describes the default pipeline and its replacement in every language.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../../src/services/companies.ts';
import { DEFAULT_PIPELINE, replaceStages, type StageInput, stagesFromJson } from '../../../src/services/pipelines.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf } from '../deals/fixtures.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

const stage = (en: string, type: StageInput['type'] = 'open', extra: Partial<StageInput> = {}): StageInput => ({
  names: { nl: null, en, de: null, fr: null },
  type,
  isDefault: false,
  probability: type === 'won' ? '100.00' : '0.00',
  color: null,
  ...extra,
});

const board = async (key: string) => {
  const res = await api.call('listPipelineStages', { key, headers: { 'accept-language': 'en' } });
  return res.body.data.map((s: { id: string; name: string; type: string; is_default: boolean }) => ({
    id: s.id,
    name: s.name,
    type: s.type,
    is_default: s.is_default,
  }));
};

describe('the default pipeline of a new company', () => {
  it('lets a new company create a deal at once, in its default stage', async () => {
    const t = await api.tenant();
    const deal = await dealOf(api, t.key);
    const stages = await api.call('listPipelineStages', { key: t.key });
    expect(stages.body.data[0]).toMatchObject({ id: deal.stage.id, is_default: true, type: 'open' });
    expect(deal.status).toBe('open');
  });

  it('has open stages, then won and lost, named in four languages; `name` follows the company’s language', async () => {
    const t = await api.tenant({ language: 'de' });
    const res = await api.call('listPipelineStages', { key: t.key });
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.body.data.map((s: { type: string }) => s.type)).toEqual(['open', 'open', 'open', 'open', 'won', 'lost']);
    expect(res.body.data.map((s: { name: string }) => s.name)).toEqual(DEFAULT_PIPELINE.map((s) => s.names.de));
    expect(res.body.data.map((s: { probability: string }) => s.probability)).toEqual([
      '10.00',
      '25.00',
      '50.00',
      '75.00',
      '100.00',
      '0.00',
    ]);
    for (const s of res.body.data) {
      for (const language of ['nl', 'en', 'de', 'fr']) expect(s.names[language]).toEqual(expect.any(String));
    }
    expect(res.body.data.filter((s: { is_default: boolean }) => s.is_default)).toHaveLength(1);
  });

  it('is written in the company’s transaction: when the stages fail, there is no company either', async () => {
    await api.sql`alter table pipeline_stages add constraint refuse_for_test check (position < 0) not valid`;
    try {
      await expect(createCompany(api.db, { name: 'Half Gemaakt BV' })).rejects.toThrow();
    } finally {
      await api.sql`alter table pipeline_stages drop constraint refuse_for_test`;
    }
    const [{ n }] = await api.sql`select count(*)::int as n from companies where name = 'Half Gemaakt BV'`;
    expect(n).toBe(0);
  });
});

describe('replacing the pipeline (company stages)', () => {
  it('keeps listed stages with their deals, adds new ones, deletes unused ones and deactivates used ones', async () => {
    const t = await api.tenant();
    const before = await board(t.key);
    const [newStage, contacted, quote, negotiation, won, lost] = before.map((s: { id: string }) => Number(s.id));
    // A won deal in "Won" (left out below) and an open deal in "Quote sent" (kept).
    const wonDeal = await dealOf(api, t.key);
    await api.call('winDeal', { key: t.key, params: { deal: wonDeal.id } });
    const openDeal = await dealOf(api, t.key, { stage_id: quote });

    const result = await replaceStages(api.db, t.companyId, [
      stage('Lead', 'open', { id: newStage, isDefault: true }),
      stage('Offer', 'open', { id: quote }),
      stage('Site visit'),
      stage('Signed', 'won'),
      stage('Lost', 'lost', { id: lost }),
    ]);
    // "Won" holds a won deal: deactivated, the deal keeps it. The others held no deal: deleted.
    expect(result.deactivated).toEqual([won]);
    expect(result.deleted.sort()).toEqual([contacted, negotiation].sort());
    const after = await board(t.key);
    expect(after.map((s: { name: string }) => s.name)).toEqual(['Lead', 'Offer', 'Site visit', 'Signed', 'Lost']);
    expect(after[0]).toMatchObject({ id: String(newStage), is_default: true });
    expect(after[1].id).toBe(String(quote));
    const kept = await api.call('getDeal', { key: t.key, params: { deal: wonDeal.id } });
    expect(kept.body.data).toMatchObject({ status: 'won', stage: { id: String(won) } });
    expect((await api.call('getDeal', { key: t.key, params: { deal: openDeal.id } })).body.data.stage.id).toBe(
      String(quote),
    );
    // Winning now ends in the new won stage; new deals land in the default.
    const next = await dealOf(api, t.key);
    expect(next.stage.id).toBe(String(newStage));
    const win = await api.call('winDeal', { key: t.key, params: { deal: next.id } });
    expect(win.body.data.stage.id).toBe(after[3].id);
  });

  it('refuses to remove a stage holding an open deal (archived too) or to retype a stage with deals; nothing changes', async () => {
    const t = await api.tenant();
    const before = await board(t.key);
    const [newStage, contacted, , , won, lost] = before.map((s: { id: string }) => Number(s.id));
    const customer = await customerOf(api, t.key);
    const deal = await dealOf(api, t.key, { customer_id: customer, stage_id: contacted });
    await api.call('archiveDeal', { key: t.key, params: { deal: deal.id } });
    const rest = [
      stage('New', 'open', { id: newStage, isDefault: true }),
      stage('Won', 'won', { id: won }),
      stage('Lost', 'lost', { id: lost }),
    ];
    await expect(replaceStages(api.db, t.companyId, rest)).rejects.toThrow(
      `stages ${contacted} (1 open deals) hold open deals`,
    );
    await expect(
      replaceStages(api.db, t.companyId, [...rest, stage('Contacted', 'lost', { id: contacted })]),
    ).rejects.toThrow(`stage ${contacted} holds deals: its type stays open`);
    expect(await board(t.key)).toEqual(before);
  });

  it('refuses a board without one open default, a won or a lost stage, or with an unknown or repeated id', async () => {
    const t = await api.tenant();
    const other = await api.tenant();
    const [otherStage] = await board(other.key);
    const ok = [stage('New', 'open', { isDefault: true }), stage('Won', 'won'), stage('Lost', 'lost')];
    const cases: [StageInput[], RegExp][] = [
      [[stage('New'), stage('Won', 'won'), stage('Lost', 'lost')], /exactly one stage must be the default \(found 0\)/],
      [[...ok, stage('Also', 'open', { isDefault: true })], /exactly one stage must be the default \(found 2\)/],
      [
        [stage('Won', 'won', { isDefault: true }), stage('New'), stage('Lost', 'lost')],
        /default stage must be of type open/,
      ],
      [[stage('New', 'open', { isDefault: true }), stage('Lost', 'lost')], /a stage of type won is needed/],
      [[...ok, stage('Theirs', 'open', { id: Number(otherStage.id) })], new RegExp(`has no stage ${otherStage.id}`)],
      [[...ok, stage('A', 'open', { id: 1 }), stage('B', 'open', { id: 1 })], /listed twice/],
    ];
    const before = await board(t.key);
    for (const [stages, problem] of cases)
      await expect(replaceStages(api.db, t.companyId, stages)).rejects.toThrow(problem);
    expect(await board(t.key)).toEqual(before);
  });

  const WON = { names: { en: 'Won' }, type: 'won' };
  const LOST = { names: { en: 'Lost' }, type: 'lost' };

  it('reads a stage file: names, type, default, probability, colour; refuses what is wrong with a pointer', () => {
    const stages = stagesFromJson(
      JSON.stringify([
        { id: '12', names: { nl: 'Nieuw', en: 'New' }, default: true, probability: 10, color: '#64748B' },
        { names: { en: 'Won' }, type: 'won' },
        { names: { fr: 'Perdu' }, type: 'lost', probability: '0.5' },
      ]),
    );
    expect(stages).toEqual([
      {
        id: 12,
        names: { nl: 'Nieuw', en: 'New', de: null, fr: null },
        type: 'open',
        isDefault: true,
        probability: '10.00',
        color: '#64748B',
      },
      {
        names: { nl: null, en: 'Won', de: null, fr: null },
        type: 'won',
        isDefault: false,
        probability: '100.00',
        color: null,
      },
      {
        names: { nl: null, en: null, de: null, fr: 'Perdu' },
        type: 'lost',
        isDefault: false,
        probability: '0.50',
        color: null,
      },
    ]);
    expect(() => stagesFromJson('[{')).toThrow(/not JSON/);
    expect(() => stagesFromJson('[{"names":{"en":"X"},"colour":"red"}]')).toThrow(/stage file: /);
    expect(() => stagesFromJson('[{"names":{}}]')).toThrow(/at 0.names: at least one name/);
    expect(() => stagesFromJson('[{"names":{"en":"X"},"probability":101}]')).toThrow(/at 0.probability/);
    expect(() => stagesFromJson('[{"names":{"en":"X"},"probability":1.234}]')).toThrow(/at 0.probability/);
    // Every two-decimal percentage, also those whose × 100 is not exact in floating point (0.29 × 100).
    for (const p of [0.07, 0.29, 1.1, 1.13, 57.7, 99.99]) {
      const file = JSON.stringify([{ names: { en: 'X' }, default: true, probability: p }, WON, LOST]);
      expect(stagesFromJson(file)[0].probability, String(p)).toBe(p.toFixed(2));
    }
    expect(() => stagesFromJson('[{"names":{"en":"X"},"default":true}]')).toThrow(/a stage of type won is needed/);
  });
});

describe('the contract', () => {
  it.each([
    'en',
    'nl',
    'de',
    'fr',
  ] as const)('describes the default pipeline (%s): every stage with its name, type and probability, and its replacement', (language) => {
    const bundle = new URL(`../../../generated/openapi.${language}.json`, import.meta.url);
    const contract = JSON.parse(readFileSync(bundle, 'utf8'));
    const description: string = contract.paths['/pipeline-stages'].get.description;
    // French puts a space before the colon.
    const colon = language === 'fr' ? ' :' : ':';
    for (const [i, stage] of DEFAULT_PIPELINE.entries()) {
      expect(description).toContain(
        `${i + 1}. ${stage.names[language]}${colon} \`${stage.type}\`, \`${stage.probability}\``,
      );
    }
    expect(description).toContain('`npm run cli -- company stages ID --file FILE`');
    expect(description).toContain('`--default`');
  });
});
