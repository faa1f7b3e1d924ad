// Payment providers' API keys at rest: sealed with AES-256-GCM (node:crypto) under a key of the installation, so
// that the database, its exports and its copies hold no usable key. The key is derived (HKDF-SHA256) from
// PAYMENT_KEYS_SECRET, or from a secret the service generated and keeps in installation_secrets (like the link
// secret, src/files/link-secret.ts) when the operator set none. Each sealed value is bound to its company and
// provider (the GCM additional data): a value copied onto another company's row does not open. A sealed value
// names the key it was sealed with (the first 8 hex digits of its SHA-256), so a changed secret is reported as
// such, not as a corrupt value.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECRET_NAME = 'payment_keys';

/** A sealed value that cannot be opened: another installation's secret, or altered. */
export class UnreadableSecret extends Error {}

export class SecretBox {
  private readonly key: Buffer;
  readonly keyId: string;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'crm payment provider keys v1', 32));
    this.keyId = createHash('sha256').update(this.key).digest('hex').slice(0, 8);
  }

  /** `text` sealed for one company's provider. */
  seal(text: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, this.keyId, ...parts].join('.');
  }

  /** The text of a value sealed by `seal` with the same `boundTo`; UnreadableSecret otherwise. */
  open(sealed: string, boundTo: string): string {
    const [version, keyId, iv, tag, body, ...rest] = sealed.split('.');
    if (version !== VERSION || rest.length > 0 || !iv || !tag || body === undefined)
      throw new UnreadableSecret('not a sealed value of this service');
    if (keyId !== this.keyId)
      throw new UnreadableSecret(
        'sealed with another PAYMENT_KEYS_SECRET: connect the payment provider again (CLI company payments)',
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableSecret('the sealed value was altered or belongs to another company');
    }
  }
}

/** What a company's provider key is bound to. */
export const providerKeyBinding = (companyId: string, provider: string) => `payment-provider:${provider}:${companyId}`;

/**
 * The installation's box: PAYMENT_KEYS_SECRET, else the generated secret in installation_secrets (made by the
 * first process that needs it; two at once both read the one that was inserted first).
 */
export async function paymentSecretBox(config: Pick<Config, 'PAYMENT_KEYS_SECRET'>, sql: Sql): Promise<SecretBox> {
  if (config.PAYMENT_KEYS_SECRET) return new SecretBox(config.PAYMENT_KEYS_SECRET);
  await sql`insert into installation_secrets (name, value) values (${SECRET_NAME}, ${randomBytes(48).toString('base64url')})
            on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from installation_secrets where name = ${SECRET_NAME}`;
  if (!row) throw new Error('installation_secrets: the generated payment-keys secret was not stored');
  return new SecretBox(row.value);
}

/** paymentSecretBox once per process (the worker's tasks ask at each job). */
export function lazySecretBox(config: Pick<Config, 'PAYMENT_KEYS_SECRET'>, sql: Sql): () => Promise<SecretBox> {
  let box: Promise<SecretBox> | undefined;
  return () => {
    box ??= paymentSecretBox(config, sql).catch((error) => {
      box = undefined;
      throw error;
    });
    return box;
  };
}
