// `company details`: the flags become the company's columns (none clears one), and a wrong country, Peppol id or
// e-invoice attachment is a usage error before the database is opened.
import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../src/cli/args.ts';

const ID = '0192f3e1-0a1b-7c2d-8e3f-4a5b6c7d8e9f';

describe('company details (arguments)', () => {
  it('maps each flag to its column; none clears; the country is upper-cased', () => {
    const command = parseCommand([
      'company',
      'details',
      ID,
      '--vat-number',
      'NL862345110B01',
      '--bic',
      'none',
      '--country',
      'be',
      '--peppol-id',
      '0208:0403019261',
      '--einvoice-attachment',
      'always',
    ]);
    expect(command).toEqual({
      name: 'company details',
      json: false,
      id: ID,
      details: {
        vatNumber: 'NL862345110B01',
        bic: null,
        country: 'BE',
        peppolId: '0208:0403019261',
        einvoiceAttachment: 'always',
      },
    });
  });

  it('refuses a Peppol id without its scheme, a country that is not a code, and no detail at all', () => {
    expect(() => parseCommand(['company', 'details', ID, '--peppol-id', '24123456'])).toThrow(UsageError);
    expect(() => parseCommand(['company', 'details', ID, '--country', 'Nederland'])).toThrow(UsageError);
    expect(() => parseCommand(['company', 'details', ID])).toThrow(UsageError);
    // The e-invoice attachment is a choice of three; none does not clear it.
    expect(() => parseCommand(['company', 'details', ID, '--einvoice-attachment', 'none'])).toThrow(UsageError);
  });
});
