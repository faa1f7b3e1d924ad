// A new XML document (UTF-8) for the e-invoices, with xmlbuilder2 loaded on the first one rather than with the
// service: every start of the API and every test file would otherwise pay its ~0.1 s of loading.
import { createRequire } from 'node:module';
import type * as XmlBuilder2 from 'xmlbuilder2';

const require = createRequire(import.meta.url);

export const xmlDocument = () =>
  (require('xmlbuilder2') as typeof XmlBuilder2).create({ version: '1.0', encoding: 'UTF-8' });
