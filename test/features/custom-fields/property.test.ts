// A property test over random field definitions and values (issue 51): whatever a customer is created with is
// either accepted and read back exactly as sent, or refused with 422 whose errors each name a field that was sent
// (`/custom_fields/<key>`), never another. fast-check draws the definitions (type, decimals, options) and the
// values (valid and invalid ones of every JSON kind); a fixed seed keeps a failure reproducible.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_TYPES } from '../../../src/db/schema/crm.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

const definition = fc.record({
  type: fc.constantFrom(...CUSTOM_FIELD_TYPES),
  decimals: fc.integer({ min: 0, max: 3 }),
  options: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/), { minLength: 1, maxLength: 4 }),
});

// Values of every JSON kind, likely valid for some type and not for others.
const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '1250.00',
    '-3.10',
    '2024-02-29',
    '2023-02-30',
    'https://example.nl/a',
    'info@example.nl',
    '+31612345678',
    '',
  ),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.5, 1.25, 2.125),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
);

describe('random definitions and values', () => {
  it('accepted values read back the same; refused ones name their own fields', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(definition, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), value, fc.boolean()), { maxLength: 5 }),
        async (definitions, draws) => {
          const { key } = await api.tenant();
          const keys = definitions.map((_, i) => `f${i}`);
          const options = new Map<string, string[]>();
          for (const [i, d] of definitions.entries()) {
            const body: Record<string, unknown> = {
              key: keys[i],
              resource: 'customers',
              type: d.type,
              labels: { en: `F${i}` },
            };
            if (d.type === 'number') body.decimals = d.decimals;
            if (d.type === 'single_select' || d.type === 'multi_select') {
              body.options = d.options.map((k) => ({ key: k, labels: { en: k } }));
              options.set(keys[i] ?? '', d.options);
            }
            const res = await api.call('createCustomField', { key, body });
            expect(res.status).toBe(201);
          }
          // Some draws pick an option key of a select, so that valid select values come up too.
          const sent: Record<string, unknown> = {};
          for (const [n, v, pickOption] of draws) {
            const field = keys[n % keys.length] ?? 'f0';
            const choices = options.get(field);
            const def = definitions[n % keys.length];
            sent[field] =
              pickOption && choices
                ? def?.type === 'multi_select'
                  ? choices.slice(0, 1 + (n % choices.length))
                  : choices[n % choices.length]
                : v;
          }
          round++;
          const res = await api.call('createCustomer', {
            key,
            body: { email: `p${round}@property.example.nl`, custom_fields: sent },
          });
          if (res.status === 201) {
            expect(res.body.data.custom_fields).toEqual(sent);
            const read = await api.call('getCustomer', { key, params: { customer: res.body.data.id } });
            expect(read.body.data.custom_fields).toEqual(sent);
          } else {
            expect(res.status).toBe(422);
            const pointers: string[] = res.body.errors.map((e: { pointer: string }) => e.pointer);
            expect(pointers.length).toBeGreaterThan(0);
            for (const pointer of pointers) {
              const field = /^\/custom_fields\/([^/]+)/.exec(pointer)?.[1];
              expect(field && Object.hasOwn(sent, field)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 40, seed: 51 },
    );
  }, 120_000);
});
