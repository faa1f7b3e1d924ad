// listPipelineStages: active stages in board order with every field, `name` in the request's language with
// the contract's fallback (company language, then nl/en/de/fr), `names` in all four, Content-Language, pages.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { emptyPipeline, type Pipeline, pipelineOf, stageOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let stages: Pipeline;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'de' }));
  stages = await pipelineOf(api, companyId);
  // Left out: deactivated.
  await stageOf(api, companyId, { type: 'open', position: 4, active: false });
});

const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((s) => s.name);

describe('listPipelineStages', () => {
  it('answers the active stages in board order with every field', async () => {
    const res = await api.call('listPipelineStages', { key, headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data[0]).toEqual({
      object: 'pipeline_stage',
      id: String(stages.newStage),
      name: 'New',
      names: { nl: 'Nieuw', en: 'New', de: 'Neu', fr: 'Nouveau' },
      type: 'open',
      is_default: true,
      position: 1,
      probability: '10.00',
      color: '#94A3B8',
    });
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual(
      [stages.newStage, stages.qualified, stages.quote, stages.won, stages.lost].map(String),
    );
    expect(res.body.data.map((s: { type: string }) => s.type)).toEqual(['open', 'open', 'open', 'won', 'lost']);
    expect(res.body.data[2]).toMatchObject({ probability: '50.00', color: null, is_default: false });
    expect(res.body.data[4]).toMatchObject({ probability: '0.00', position: 6 });
  });

  it.each([
    ['nl', ['Nieuw', 'Gekwalificeerd', 'Offerte verstuurd', 'Gewonnen', 'Verloren']],
    ['fr-BE,fr;q=0.9', ['Nouveau', 'Qualifiziert', 'Offerte verstuurd', 'Gagné', 'Perdu']],
    ['de', ['Neu', 'Qualifiziert', 'Offerte verstuurd', 'Gewonnen', 'Verloren']],
  ])('Accept-Language %s: names in that language, else the company’s (de), else nl/en/de/fr', async (accept, expected) => {
    const res = await api.call('listPipelineStages', { key, headers: { 'accept-language': accept } });
    expect(names(res)).toEqual(expected);
    expect(res.headers.get('content-language')).toBe(accept.slice(0, 2));
  });

  it('without Accept-Language: the company’s language; without a name in it: the first in nl, en, de, fr', async () => {
    const res = await api.call('listPipelineStages', { key });
    expect(res.headers.get('content-language')).toBe('de');
    // Names missing in French (Gekwalificeerd, Offerte verstuurd) fall back to Dutch, the first of nl/en/de/fr.
    const fr = await api.tenant({ language: 'fr' });
    await pipelineOf(api, fr.companyId);
    const french = await api.call('listPipelineStages', { key: fr.key });
    expect(names(french)).toEqual(['Nouveau', 'Gekwalificeerd', 'Offerte verstuurd', 'Gagné', 'Perdu']);
  });

  it('pages in board order with cursors both ways; only the company’s own stages', async () => {
    const p1 = await api.call('listPipelineStages', { key, query: { limit: 2 } });
    expect(p1.body.data.map((s: { id: string }) => s.id)).toEqual([stages.newStage, stages.qualified].map(String));
    const p2 = await api.call('listPipelineStages', { key, query: { limit: 2, cursor: p1.body.meta.next_cursor } });
    expect(p2.body.data.map((s: { id: string }) => s.id)).toEqual([stages.quote, stages.won].map(String));
    const p3 = await api.call('listPipelineStages', { key, query: { limit: 2, cursor: p2.body.meta.next_cursor } });
    expect(p3.body.data.map((s: { id: string }) => s.id)).toEqual([String(stages.lost)]);
    expect(p3.body.meta.next_cursor).toBeNull();
    const back = await api.call('listPipelineStages', { key, query: { limit: 2, cursor: p3.body.meta.prev_cursor } });
    expect(back.body.data).toEqual(p2.body.data);
  });

  it('a company without stages answers an empty list', async () => {
    const empty = await api.tenant();
    await emptyPipeline(api, empty.companyId);
    const res = await api.call('listPipelineStages', { key: empty.key });
    expect(res.body).toEqual({ data: [], meta: { limit: 50, next_cursor: null, prev_cursor: null } });
  });
});
