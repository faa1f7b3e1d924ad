// The `detail` of problems — top-level and per invalid input — follows the response's language like the title:
// Accept-Language, else the company's language, else English. The catalogue has every text in all four
// languages with the same placeholders; English texts are the ones clients have seen so far.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../src/http/language.ts';
import { localize } from '../../src/http/message-catalogue.ts';
import { message } from '../../src/http/messages.ts';
import { messageCatalogue } from '../../src/resources/index.ts';
import { type CallResult, setupApi, type TestApi } from '../harness/api.ts';

describe('the message catalogue', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)(?:\|[^{}]*)?\}/g)].map((m) => m[1]).sort();

  it('has every message in nl, en, de and fr, translated, with the placeholders of the English', () => {
    const entries = Object.entries(messageCatalogue);
    expect(entries.length).toBeGreaterThan(60);
    for (const [id, texts] of entries) {
      expect(Object.keys(texts).sort(), id).toEqual([...LANGUAGES].sort());
      for (const language of LANGUAGES) {
        expect(texts[language].trim(), `${id} ${language}`).not.toBe('');
        expect(placeholders(texts[language]), `${id} ${language}`).toEqual(placeholders(texts.en));
        if (language !== 'en') expect(texts[language], `${id} ${language}`).not.toBe(texts.en);
      }
    }
  });

  it('fills placeholders and joins a list with the language’s “or”', () => {
    const methods = message('request.use_methods', { methods: ['GET', 'POST'] });
    expect(localize(methods, 'en')).toBe('Use GET or POST here.');
    expect(localize(methods, 'nl')).toBe('Gebruik hier GET of POST.');
    expect(localize(methods, 'de')).toBe('Verwenden Sie hier GET oder POST.');
    expect(localize(methods, 'fr')).toBe('Utilisez ici GET ou POST.');
    expect(localize(message('body.too_large', { max: 1048576 }), 'en')).toBe(
      'The request body is larger than 1,048,576 bytes.',
    );
  });

  it('chooses the plural form by the language’s rules and writes the count as the language does', () => {
    const short = (min: number, language: 'nl' | 'en' | 'de' | 'fr') =>
      localize(message('field.too_short', { min }), language);
    expect(short(1, 'fr')).toBe('Doit contenir au moins 1 caractère.');
    expect(short(2, 'fr')).toBe('Doit contenir au moins 2 caractères.');
    expect(short(1, 'nl')).toBe('Moet minstens 1 teken lang zijn.');
    expect(short(3, 'nl')).toBe('Moet minstens 3 tekens lang zijn.');
    expect(short(1, 'en')).toBe('Must be at least 1 character long.');
    expect(short(1, 'de')).toBe('Muss mindestens 1 Zeichen lang sein.');
    expect(localize(message('field.more_errors', { count: 1 }), 'en')).toBe('1 more invalid input is not listed.');
    expect(localize(message('field.more_errors', { count: 1200 }), 'de')).toBe(
      '1.200 weitere ungültige Eingaben sind nicht aufgeführt.',
    );
  });
});

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'en' }));
});

type Texts = Record<Language, string>;
type Problem = { code: string; detail?: string; errors?: { detail: string; pointer?: string | null }[] };
const inLanguage = (language: Language) => ({ 'Accept-Language': language });

/** Calls `send` in each language; each answer has that Content-Language, the code and the expected detail. */
async function expectDetails(
  send: (headers: Record<string, string>) => Promise<CallResult<Problem>>,
  status: number,
  code: string,
  read: (body: Problem) => string | undefined,
  texts: Texts,
) {
  for (const language of LANGUAGES) {
    const res = await send(inLanguage(language));
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.headers.get('content-language')).toBe(language);
    expect(read(res.body), language).toBe(texts[language]);
  }
}

const detail = (body: Problem) => body.detail;
const fieldDetail = (body: Problem) => body.errors?.[0]?.detail;

const ONE_INVALID_INPUT: Texts = {
  en: 'The request has 1 invalid input.',
  nl: 'Het verzoek bevat 1 ongeldige invoer.',
  de: 'Die Anfrage enthält 1 ungültige Eingabe.',
  fr: 'La requête contient 1 entrée invalide.',
};

const EMAIL_TAKEN: Texts = {
  en: 'A customer with this email address already exists.',
  nl: 'Er bestaat al een klant met dit e-mailadres.',
  de: 'Es gibt bereits einen Kunden mit dieser E-Mail-Adresse.',
  fr: 'Un client avec cette adresse e-mail existe déjà.',
};

describe('localized details', () => {
  it('422 already_exists: the detail and the field’s detail', async () => {
    const body = { email: 'dubbel-taal@example.nl' };
    expect((await api.call('createCustomer', { key, body })).status).toBe(201);
    const send = (headers: Record<string, string>) => api.call('createCustomer', { key, body, headers });
    await expectDetails(send, 422, 'validation_failed', detail, ONE_INVALID_INPUT);
    await expectDetails(send, 422, 'validation_failed', fieldDetail, EMAIL_TAKEN);
  });

  it('413 payload_too_large', async () => {
    const send = (headers: Record<string, string>) =>
      api.call('createCustomer', {
        key,
        rawBody: '{}',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(1024 * 1024 + 1) },
      });
    await expectDetails(send, 413, 'payload_too_large', detail, {
      en: 'The request body is larger than 1,048,576 bytes.',
      nl: 'De body van het verzoek is groter dan 1.048.576 bytes.',
      de: 'Der Anfrage-Body ist größer als 1.048.576 Bytes.',
      fr: 'Le corps de la requête dépasse 1\u202F048\u202F576 octets.',
    });
  });

  it('412 precondition_failed when If-Match does not match, with the current ETag untranslated', async () => {
    const created = await api.call('createCustomer', { key, body: { email: 'etag-taal@example.nl' } });
    expect(created.headers.get('etag')).toBe('"1"');
    const send = (headers: Record<string, string>) =>
      api.call('updateCustomer', {
        key,
        params: { customer: created.body.data.id },
        headers: { ...headers, 'if-match': '"7"' },
        body: { name: 'Nieuw' },
      });
    await expectDetails(send, 412, 'precondition_failed', detail, {
      en: 'The record has changed; its current ETag is "1".',
      nl: 'Het record is gewijzigd; de huidige ETag is "1".',
      de: 'Der Datensatz wurde geändert; sein aktuelles ETag ist "1".',
      fr: 'L’enregistrement a été modifié ; son ETag actuel est "1".',
    });
  });

  it('401 invalid_api_key (no company: the header alone decides)', async () => {
    const send = (headers: Record<string, string>) => api.call('getMe', { key: 'svc_not-a-real-key', headers });
    await expectDetails(send, 401, 'invalid_api_key', detail, {
      en: 'The API key is not valid.',
      nl: 'De API-sleutel is niet geldig.',
      de: 'Der API-Schlüssel ist ungültig.',
      fr: 'La clé d’API n’est pas valide.',
    });
  });

  it('403 insufficient_scope, the scope name untranslated', async () => {
    const reader = await api.tenant({ scopes: ['customers.read'] });
    const send = (headers: Record<string, string>) =>
      api.call('createCustomer', { key: reader.key, body: { email: 'scope-taal@example.nl' }, headers });
    await expectDetails(send, 403, 'insufficient_scope', detail, {
      en: 'This operation needs the scope customers.write.',
      nl: 'Deze operatie vereist de scope customers.write.',
      de: 'Diese Operation erfordert den Scope customers.write.',
      fr: 'Cette opération nécessite la portée customers.write.',
    });
  });

  it('422 idempotency_key_reused', async () => {
    const ik = randomUUID();
    const headers = { 'idempotency-key': ik };
    expect((await api.call('createCustomer', { key, body: { email: 'ik-een@example.nl' }, headers })).status).toBe(201);
    const send = (language: Record<string, string>) =>
      api.call('createCustomer', { key, body: { email: 'ik-twee@example.nl' }, headers: { ...language, ...headers } });
    await expectDetails(send, 422, 'idempotency_key_reused', detail, {
      en: 'This Idempotency-Key was used for a different request.',
      nl: 'Deze Idempotency-Key is gebruikt voor een ander verzoek.',
      de: 'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet.',
      fr: 'Cette Idempotency-Key a été utilisée pour une autre requête.',
    });
  });

  it('a stored business error is replayed in the language of the repeating request', async () => {
    const body = { email: 'dubbel-taal@example.nl' };
    const ik = randomUUID();
    const create = (language: Language) =>
      api.call('createCustomer', { key, body, headers: { ...inLanguage(language), 'idempotency-key': ik } });
    const first = await create('nl');
    expect(first.status).toBe(422);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.errors[0].detail).toBe(EMAIL_TAKEN.nl);
    for (const language of LANGUAGES) {
      const replay = await create(language);
      expect(replay.status).toBe(422);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('content-language')).toBe(language);
      expect(replay.body.detail).toBe(ONE_INVALID_INPUT[language]);
      expect(replay.body.errors[0].detail).toBe(EMAIL_TAKEN[language]);
      // Otherwise the stored answer: the first request's id and instance.
      expect(replay.body.request_id).toBe(first.body.request_id);
    }
    expect((await create('nl')).body).toEqual(first.body);
  });

  it('follows the company’s language without Accept-Language', async () => {
    const german = await api.tenant({ language: 'de' });
    const res = await api.call('getCustomer', {
      key: german.key,
      params: { customer: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.body.detail).toBe('Es gibt keinen Kunden mit dieser ID.');
  });

  it('localizes the details of zod validation and of the body checks', async () => {
    const malformed = (headers: Record<string, string>) =>
      api.call('createCustomer', { key, rawBody: '{', headers: { ...headers, 'content-type': 'application/json' } });
    await expectDetails(malformed, 422, 'validation_failed', fieldDetail, {
      en: 'The body is not valid JSON.',
      nl: 'De body is geen geldige JSON.',
      de: 'Der Body ist kein gültiges JSON.',
      fr: 'Le corps n’est pas du JSON valide.',
    });
    const twoMissing = (headers: Record<string, string>) =>
      api.call('createCustomer', { key, body: { name: 'x'.repeat(1000) }, headers });
    await expectDetails(twoMissing, 422, 'validation_failed', detail, {
      en: 'The request has 2 invalid inputs.',
      nl: 'Het verzoek bevat 2 ongeldige invoerwaarden.',
      de: 'Die Anfrage enthält 2 ungültige Eingaben.',
      fr: 'La requête contient 2 entrées invalides.',
    });
  });

  it('says a list’s limits with what it holds and how many, in the plural form of the count', async () => {
    const errorAt = (pointer: string) => (body: Problem) => body.errors?.find((e) => e.pointer === pointer)?.detail;
    const noItems = (headers: Record<string, string>) =>
      api.call('createQuote', { key, body: { customer_id: randomUUID(), title: 'Leeg', items: [] }, headers });
    await expectDetails(noItems, 422, 'validation_failed', errorAt('/items'), {
      en: 'Add at least 1 item.',
      nl: 'Voeg minstens 1 item toe.',
      de: 'Fügen Sie mindestens 1 Eintrag hinzu.',
      fr: 'Ajoutez au moins 1 élément.',
    });
    const cc = Array.from({ length: 6 }, (_, i) => `kopie${i}@example.nl`);
    const sixCopies = (headers: Record<string, string>) =>
      api.call('sendQuote', { key, params: { quote: randomUUID() }, body: { cc }, headers });
    await expectDetails(sixCopies, 422, 'validation_failed', errorAt('/cc'), {
      en: 'At most 5 addresses.',
      nl: 'Hooguit 5 adressen.',
      de: 'Höchstens 5 Adressen.',
      fr: 'Au plus 5 adresses.',
    });
  });
});
