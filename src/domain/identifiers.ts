// The identifiers an e-invoice carries, checked where they are entered (customers, the company's details) and again
// when an e-invoice is made of values stored before these checks: VAT numbers per country (jsvat), IBAN and BIC
// (ibantools), Dutch KvK and Belgian enterprise numbers, and Peppol participant ids against the EAS code list with
// the scheme's own check. Each failure names the rule it breaks: the EN 16931 or Peppol rule where one exists
// (BR-CO-09, PEPPOL-EN16931-CL008, PEPPOL-COMMON-R040…R050), else the check's own name (VAT, IBAN, BIC, KVK).
import { isValidBIC, isValidIBAN } from 'ibantools';
import { checkVAT, countries } from 'jsvat';
import { EAS_CODES } from './code-lists/eas.ts';
import { VAT_PREFIXES } from './code-lists/vat-prefixes.ts';

/** Removes the white space and dots people write in numbers (`NL 8537.46.333 B01`), upper-cased; null when empty. */
export const compactIdentifier = (value: string | null | undefined): string | null => {
  const text = value?.replace(/[\s.]/g, '').toUpperCase() ?? '';
  return text === '' ? null : text;
};

/** The ISO 3166-1 country of a VAT number's prefix (Greece writes EL), or null without a two-letter prefix. */
export const vatCountry = (vat: string | null): string | null => {
  const prefix = vat?.slice(0, 2) ?? '';
  return prefix === 'EL' ? 'GR' : /^[A-Z]{2}$/.test(prefix) ? prefix : null;
};

/** EU member states (ISO 3166-1; Greece as GR, which its VAT numbers write EL). */
export const EU = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

/** The countries jsvat knows, by ISO code: their VAT numbers are checked with their own format and check digits. */
const JSVAT_COUNTRIES = new Set(countries.map((country) => (country.codes[0] === 'EL' ? 'GR' : country.codes[0])));

/** A rule a value breaks: its identifier, as the 422 and the e-invoice 409 name it. */
export type IdentifierRule =
  | 'BR-CO-09'
  | 'VAT'
  | 'IBAN'
  | 'BIC'
  | 'KVK'
  | 'PEPPOL-ID'
  | 'PEPPOL-EN16931-CL008'
  | 'PEPPOL-COMMON-R040'
  | 'PEPPOL-COMMON-R041'
  | 'PEPPOL-COMMON-R042'
  | 'PEPPOL-COMMON-R043'
  | 'PEPPOL-COMMON-R049'
  | 'PEPPOL-COMMON-R050';

/**
 * What is wrong with a VAT number: no ISO 3166-1 country prefix (BR-CO-09), or, for a country whose numbers jsvat
 * knows (every EU member state and a few neighbours), not that country's format and check digits.
 */
export function vatNumberRule(value: string): IdentifierRule | null {
  const vat = compactIdentifier(value) ?? '';
  const country = vatCountry(vat);
  if (!country || !VAT_PREFIXES.has(vat.slice(0, 2))) return 'BR-CO-09';
  if (!JSVAT_COUNTRIES.has(country)) return /^[A-Z]{2}[0-9A-Z+*]{2,15}$/.test(vat) ? null : 'VAT';
  return checkVAT(vat, countries).isValid ? null : 'VAT';
}

export const ibanRule = (value: string): IdentifierRule | null =>
  isValidIBAN(compactIdentifier(value) ?? '') ? null : 'IBAN';

export const bicRule = (value: string): IdentifierRule | null =>
  isValidBIC(compactIdentifier(value) ?? '') ? null : 'BIC';

/** A Belgian enterprise number (KBO/BCE, ondernemingsnummer): 10 digits, the last two 97 − (first eight mod 97). */
export function isBelgianEnterpriseNumber(digits: string): boolean {
  if (!/^[01][0-9]{9}$/.test(digits)) return false;
  return 97 - (Number(digits.slice(0, 8)) % 97) === Number(digits.slice(8));
}

/** A Dutch KvK number: 8 digits. */
export const isKvkNumber = (digits: string) => /^[0-9]{8}$/.test(digits);

/**
 * What is wrong with a chamber-of-commerce number of a party in `country`: a Dutch one is a KvK number (8 digits),
 * a Belgian one an enterprise number with its check digits (PEPPOL-COMMON-R043: a Belgian company with a KvK number
 * is refused); other countries' registers are not checked.
 */
export function cocNumberRule(value: string, country: string | null): IdentifierRule | null {
  const digits = value.replace(/[\s.]/g, '').replace(/^BE/i, '');
  switch (country?.toUpperCase()) {
    case 'NL':
      return isKvkNumber(digits) ? null : 'KVK';
    case 'BE':
      return isBelgianEnterpriseNumber(digits) ? null : 'PEPPOL-COMMON-R043';
    default:
      return null;
  }
}

/** GS1 check digit (GLN, 13 digits): weights 3 and 1 from the right, the total a multiple of 10. */
function gs1(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - 1 - i;
    sum += Number(digits[i]) * (fromRight % 2 === 1 ? 3 : 1);
  }
  return sum % 10 === 0;
}

/** Norwegian organisation number: 9 digits, mod 11 with weights 3 2 7 6 5 4 3 2. */
function mod11No(digits: string): boolean {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  const check = 11 - (sum % 11);
  return (check === 11 ? 0 : check) === Number(digits[8]);
}

/** Swedish organisation number: 10 digits, Luhn. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Australian Business Number: 11 digits, the first less one, weighted, a multiple of 89. */
function abn(digits: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = weights.reduce((total, weight, i) => total + weight * (Number(digits[i]) - (i === 0 ? 1 : 0)), 0);
  return sum % 89 === 0;
}

/** The EAS schemes of VAT numbers, per country (EAS code list: "<country> VAT number" and the national tax ids used as such). */
export const VAT_SCHEMES: Readonly<Record<string, string>> = {
  HU: '9910',
  AT: '9914',
  ES: '9920',
  AD: '9922',
  AL: '9923',
  BA: '9924',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  GB: '9932',
  GR: '9933',
  HR: '9934',
  IE: '9935',
  LI: '9936',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MC: '9940',
  ME: '9941',
  MK: '9942',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  RS: '9948',
  SI: '9949',
  SK: '9950',
  SM: '9951',
  TR: '9952',
  VA: '9953',
  FR: '9957',
  IT: '0211',
  FI: '0213',
};
const COUNTRY_OF_VAT_SCHEME = new Map(Object.entries(VAT_SCHEMES).map(([country, scheme]) => [scheme, country]));

/** A Peppol participant id: `scheme:value`, the scheme a four-digit EAS code (0106:24123456). */
export const PEPPOL_ID = /^(\d{4}):([^\s:]{1,125})$/;

/**
 * What is wrong with a Peppol participant id: not `scheme:value` (PEPPOL-ID), a scheme outside the EAS code list
 * (PEPPOL-EN16931-CL008), or a value its scheme's own check refuses: the Peppol rules' (GLN, Norwegian, Danish,
 * Belgian, Swedish, Australian numbers), a KvK number for 0106, a valid VAT number of the scheme's country for a
 * VAT scheme.
 */
export function peppolIdRule(value: string): IdentifierRule | null {
  const match = PEPPOL_ID.exec(value.trim());
  if (!match) return 'PEPPOL-ID';
  const [, scheme, id] = match;
  if (!Object.hasOwn(EAS_CODES, scheme)) return 'PEPPOL-EN16931-CL008';
  switch (scheme) {
    case '0088':
      return /^[0-9]+$/.test(id) && gs1(id) ? null : 'PEPPOL-COMMON-R040';
    case '0192':
      return /^[0-9]{9}$/.test(id) && mod11No(id) ? null : 'PEPPOL-COMMON-R041';
    case '0184':
      return /^(DK)?[0-9]{8}$/.test(id) ? null : 'PEPPOL-COMMON-R042';
    case '0208':
      return isBelgianEnterpriseNumber(id) ? null : 'PEPPOL-COMMON-R043';
    case '0007':
      return /^[0-9]{10}$/.test(id) && luhn(id) ? null : 'PEPPOL-COMMON-R049';
    case '0151':
      return /^[0-9]{11}$/.test(id) && abn(id) ? null : 'PEPPOL-COMMON-R050';
    case '0106':
      return isKvkNumber(id) ? null : 'KVK';
  }
  const vatOf = COUNTRY_OF_VAT_SCHEME.get(scheme);
  if (vatOf === 'IT') return /^[0-9]{11}$/.test(id) ? null : 'VAT';
  if (vatOf && JSVAT_COUNTRIES.has(vatOf)) {
    const prefix = vatOf === 'GR' ? 'EL' : vatOf;
    const vat = id.toUpperCase().startsWith(prefix) ? id : `${prefix}${id}`;
    return checkVAT(vat.toUpperCase(), countries).isValid ? null : 'VAT';
  }
  return null;
}

/**
 * The Peppol id a party's VAT number stands for where its country has a VAT scheme in the EAS list: the number with
 * its prefix (9944:NL853746333B01), for Italy the Partita IVA's digits (0211:…).
 */
export function peppolIdOfVatNumber(vatNumber: string | null): { scheme: string; id: string } | null {
  const vat = compactIdentifier(vatNumber);
  const country = vatCountry(vat);
  const scheme = country ? VAT_SCHEMES[country] : undefined;
  if (!vat || !scheme) return null;
  return { scheme, id: country === 'IT' ? vat.slice(2) : vat };
}

/** The identifier fields of a party (a customer, the company) as entered. */
export type PartyIdentifiers = {
  country?: string | null;
  vat_number?: string | null;
  coc_number?: string | null;
  iban?: string | null;
  bic?: string | null;
  peppol_id?: string | null;
};
export type IdentifierField = Exclude<keyof PartyIdentifiers, 'country'>;

/**
 * Every identifier of `party` that breaks its rule, in field order. A chamber-of-commerce number is judged by the
 * party's country (`country` of the same input, else `storedCountry`).
 */
export function identifierProblems(
  party: PartyIdentifiers,
  storedCountry: string | null = null,
): { field: IdentifierField; rule: IdentifierRule }[] {
  const found: { field: IdentifierField; rule: IdentifierRule }[] = [];
  const check = (field: IdentifierField, rule: (value: string) => IdentifierRule | null) => {
    const value = party[field];
    if (typeof value !== 'string' || value.trim() === '') return;
    const broken = rule(value);
    if (broken) found.push({ field, rule: broken });
  };
  check('vat_number', vatNumberRule);
  check('coc_number', (value) => cocNumberRule(value, party.country ?? storedCountry));
  check('iban', ibanRule);
  check('bic', bicRule);
  check('peppol_id', peppolIdRule);
  return found;
}
