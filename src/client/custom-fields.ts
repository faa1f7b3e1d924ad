// The `filter[custom_fields]` parameter of the lists of customers and deals, written from typed conditions:
// `customFieldFilter({ employees: { gte: 10 }, level: ['gold', 'silver'], vip: true })` gives the parameter's object
// (`{ 'employees[gte]': '10', level: 'gold,silver', vip: 'true' }`), which both clients send as
// `filter[custom_fields][employees][gte]=10&filter[custom_fields][level]=gold,silver&…`.

/** A field's condition: its exact value, any of a select's option keys, or an inclusive range (number, money, date). */
export type CustomFieldCondition =
  | string
  | number
  | boolean
  | readonly string[]
  | { readonly gte?: string | number; readonly lte?: string | number };

/** The value of the `filter[custom_fields]` query parameter for these conditions (all must hold). */
export function customFieldFilter(conditions: Readonly<Record<string, CustomFieldCondition>>): Record<string, string> {
  const filter: Record<string, string> = {};
  for (const [key, condition] of Object.entries(conditions)) {
    if (Array.isArray(condition)) filter[key] = condition.join(',');
    else if (typeof condition === 'object' && condition !== null && !Array.isArray(condition)) {
      if ('gte' in condition && condition.gte !== undefined) filter[`${key}[gte]`] = String(condition.gte);
      if ('lte' in condition && condition.lte !== undefined) filter[`${key}[lte]`] = String(condition.lte);
    } else filter[key] = String(condition);
  }
  return filter;
}
