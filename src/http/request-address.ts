// Where a request comes from, as the pipeline sees it, and where the API lives.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

export { API_PREFIX } from '../api-address.ts';

export function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? '127.0.0.1';
  } catch {
    return '127.0.0.1'; // app.request() in tests has no socket
  }
}
