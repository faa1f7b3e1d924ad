// `/`, `/api/v1` and `/errors`: no resource lives there, but they are the addresses a newcomer tries first. Each
// answers a short JSON pointer (no key needed, outside the operations like /docs) to the reference, the contract, the
// error pages and GET /api/v1/me, the quickest test of a key, instead of a 404 that says nothing.
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import { API_PREFIX } from './pipeline.ts';

export const pointers = (publicUrl: string) => (c: Context<AppEnv>) =>
  c.json({
    object: 'pointer',
    docs: `${publicUrl}/docs`,
    contract: `${publicUrl}${API_PREFIX}/openapi.json`,
    errors: `${publicUrl}/errors/{code}`,
    me: `${publicUrl}${API_PREFIX}/me`,
    hint: `Send your key as "Authorization: Bearer <key>" to ${publicUrl}${API_PREFIX}/me to test it; the reference is at ${publicUrl}/docs.`,
  });
