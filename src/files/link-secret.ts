// The secret that signs download links and review forms. FILE_LINK_SECRET when the operator set one; otherwise a
// random one the service generated at its first start and keeps in the database (installation_secrets), because
// the database is the one thing every API node and worker of an installation shares (DATA_DIR exists only with
// the embedded PostgreSQL, and on one machine). A secret ever published, such as the development default of
// earlier versions, is never used: links signed with it are refused like any forged link.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';

/** The secrets that sign (current) and that are still accepted for the 15 minutes after a rotation (previous). */
export type LinkSecrets = { current: string; previous: string | undefined; generated: boolean };

const NAME = 'file_links';

export async function linkSecrets(config: Config, sql: Sql): Promise<LinkSecrets> {
  const previous = config.FILE_LINK_SECRET_PREVIOUS;
  if (config.FILE_LINK_SECRET) return { current: config.FILE_LINK_SECRET, previous, generated: false };
  // Two nodes starting at once both try; the first insert wins and both read its value.
  await sql`insert into installation_secrets (name, value) values (${NAME}, ${randomBytes(48).toString('base64url')})
            on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from installation_secrets where name = ${NAME}`;
  if (!row) throw new Error('installation_secrets: the generated file-link secret was not stored');
  return { current: row.value, previous, generated: true };
}
