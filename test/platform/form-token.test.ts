// The public pages' form tokens (src/http/form-token.ts): valid for FORM_SECONDS after the page was opened, for
// the record and nonce they were issued for, signed with the current or the previous link secret. A token that
// never expires, or one dated in the future (forged clock, or a secret that leaked), is refused.
import { describe, expect, it } from 'vitest';
import { FORM_SECONDS, FormTokens } from '../../src/http/form-token.ts';

const RECORD = '01900000-0000-7000-8000-00000000000a';
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const forms = new FormTokens('quote', 'secret-now', 'secret-before');
const nonce = forms.newNonce();

describe('form tokens', () => {
  it('accepts a token for its record and nonce until FORM_SECONDS after it was issued', () => {
    const token = forms.issue(RECORD, nonce, NOW);
    expect(forms.verify(token, RECORD, nonce, NOW)).toBe(true);
    expect(forms.verify(token, RECORD, nonce, NOW + FORM_SECONDS * 1000)).toBe(true);
  });

  it('refuses it past FORM_SECONDS: a form does not stay usable for ever', () => {
    const token = forms.issue(RECORD, nonce, NOW);
    expect(forms.verify(token, RECORD, nonce, NOW + (FORM_SECONDS + 1) * 1000)).toBe(false);
    expect(forms.verify(token, RECORD, nonce, NOW + 365 * 24 * 3600 * 1000)).toBe(false);
  });

  it('refuses a token dated in the future', () => {
    const ahead = forms.issue(RECORD, nonce, NOW + 60_000);
    expect(forms.verify(ahead, RECORD, nonce, NOW)).toBe(false);
    const farAhead = forms.issue(RECORD, nonce, NOW + 10 * 365 * 24 * 3600 * 1000);
    expect(forms.verify(farAhead, RECORD, nonce, NOW)).toBe(false);
  });

  it('refuses another record, another nonce, no nonce, another kind of form and an altered token', () => {
    const token = forms.issue(RECORD, nonce, NOW);
    expect(forms.verify(token, '01900000-0000-7000-8000-00000000000b', nonce, NOW)).toBe(false);
    expect(forms.verify(token, RECORD, forms.newNonce(), NOW)).toBe(false);
    expect(forms.verify(token, RECORD, undefined, NOW)).toBe(false);
    expect(new FormTokens('review', 'secret-now').verify(token, RECORD, nonce, NOW)).toBe(false);
    const [issuedAt, signature] = token.split('.');
    expect(forms.verify(`${Number(issuedAt) - 1}.${signature}`, RECORD, nonce, NOW)).toBe(false);
  });

  it('accepts a token signed with the previous secret (a rotation), not one of an unknown secret', () => {
    const before = new FormTokens('quote', 'secret-before').issue(RECORD, nonce, NOW);
    expect(forms.verify(before, RECORD, nonce, NOW)).toBe(true);
    const unknown = new FormTokens('quote', 'secret-other').issue(RECORD, nonce, NOW);
    expect(forms.verify(unknown, RECORD, nonce, NOW)).toBe(false);
  });
});
