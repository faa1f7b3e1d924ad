// Phone numbers in E.164 (`+31612345678`), the one form in which two numbers are the same number only when they
// are: WhatsApp names a sender by its full international number, and matching it against the end of a stored
// number (`06 19335561` against French `+33 6 19 33 55 61`) gave one customer another's conversation.
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The number in E.164, or null when it is not a possible phone number. A number written without its country code
 * (`06 12345678`) is read as one of `defaultCountry` (the company's country, ISO 3166 alpha-2); `00` and `+`
 * prefixes name their own country.
 */
export function toE164(phone: string | null | undefined, defaultCountry: string): string | null {
  if (!phone || phone.length > 64) return null;
  const region = defaultCountry.toUpperCase();
  const country: CountryCode | undefined = isSupportedCountry(region) ? region : undefined;
  // libphonenumber reads `00` as an international prefix only for countries that dial it; said for all here.
  const written = phone.trim().replace(/^00(?=[1-9])/, '+');
  const parsed = parsePhoneNumberFromString(written, country);
  return parsed?.isPossible() ? parsed.number : null;
}
