// The demo company's own fields (issue 51): three on customers and one on deals, with values a Dutch installation
// company would keep. Values are chosen per record from its position, so every run gives the same demo.
import type { CustomFieldValues } from '../../db/schema/columns.ts';
import type { customFields } from '../../db/schema/index.ts';

type Definition = Omit<typeof customFields.$inferInsert, 'companyId' | 'id'>;

export const DEMO_CUSTOM_FIELDS: Definition[] = [
  {
    resource: 'customers',
    key: 'employee_count',
    type: 'number',
    decimals: 0,
    labels: {
      nl: 'Aantal medewerkers',
      en: 'Number of employees',
      de: 'Anzahl der Mitarbeiter',
      fr: 'Nombre d’employés',
    },
    position: 10,
  },
  {
    resource: 'customers',
    key: 'service_level',
    type: 'single_select',
    labels: { nl: 'Serviceniveau', en: 'Service level', de: 'Servicestufe', fr: 'Niveau de service' },
    options: [
      { key: 'gold', labels: { nl: 'Goud', en: 'Gold', de: 'Gold', fr: 'Or' } },
      { key: 'silver', labels: { nl: 'Zilver', en: 'Silver', de: 'Silber', fr: 'Argent' } },
      { key: 'basic', labels: { nl: 'Basis', en: 'Basic', de: 'Basis', fr: 'Base' } },
    ],
    position: 20,
  },
  {
    resource: 'customers',
    key: 'maintenance_contract',
    type: 'boolean',
    labels: {
      nl: 'Onderhoudscontract',
      en: 'Maintenance contract',
      de: 'Wartungsvertrag',
      fr: 'Contrat de maintenance',
    },
    position: 30,
  },
  {
    resource: 'deals',
    key: 'contract_end',
    type: 'date',
    labels: { nl: 'Einde contract', en: 'Contract end', de: 'Vertragsende', fr: 'Fin du contrat' },
    position: 10,
  },
];

const LEVELS = ['gold', 'silver', 'basic'] as const;

/** A demo customer's values: businesses have a size and a level; every third customer a maintenance contract. */
export function demoCustomerValues(index: number, business: boolean): CustomFieldValues {
  const values: CustomFieldValues = {};
  if (business) {
    values.employee_count = 4 + ((index * 7) % 60);
    values.service_level = LEVELS[index % LEVELS.length] ?? 'basic';
  }
  if (index % 3 === 0) values.maintenance_contract = true;
  return values;
}

/** A demo deal's values: every other deal has a contract end, in the year after `now`. */
export function demoDealValues(index: number, now: Date): CustomFieldValues {
  if (index % 2 === 1) return {};
  const month = String((index % 12) + 1).padStart(2, '0');
  return { contract_end: `${now.getUTCFullYear() + 1}-${month}-28` };
}
