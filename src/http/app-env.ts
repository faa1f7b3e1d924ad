// What every request carries through the middleware chain into its handler.
import type { Operation, OperationId } from '../../generated/operations.ts';
import type { Tenant } from '../db/tenant.ts';
import type { Deps } from '../deps.ts';
import type { AuthContext } from './key-checks.ts';
import type { Language } from './language.ts';

export type AppVariables = {
  deps: Deps;
  requestId: string;
  errorsUrl: string;
  language: Language;
  operationId: OperationId;
  operation: Operation;
  auth: AuthContext;
  /** The key's company: every read and write of the handler goes through it (set with `auth`). */
  tenant: Tenant;
  /** Set when the request was refused with 429 concurrency_limited (so /metrics does not count it as rate_limited). */
  concurrencyLimited: boolean;
};

export type AppEnv = { Variables: AppVariables };
