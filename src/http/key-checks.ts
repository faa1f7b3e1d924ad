// The key checks of every request, in the order of the specification's errors: who (401), then whether
// this key may act from here on this company (403), then scope and feature (403).

import { inRanges } from '../auth/ip.ts';
import { hashKey, isWellFormedKey } from '../auth/key-format.ts';
import type { KeyRecord, KeyStore } from '../auth/key-store.ts';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

export type AuthContext = { key: KeyRecord; companyId: string; scopes: ReadonlySet<string>; clientIp: string };

/**
 * 401s: no key, a malformed or unknown key. The key found tells the company (and so its language). `beforeLookup`
 * runs when the key must be looked up in the database (not cached), and may refuse the request instead.
 */
export async function identifyKey(
  authorization: string | undefined,
  store: KeyStore,
  beforeLookup?: () => Promise<void>,
): Promise<KeyRecord> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) throw new ApiProblem('unauthenticated', message('auth.bearer_missing'));
  // The checksum refuses a mistyped key before any database lookup.
  if (!isWellFormedKey(match[1])) throw new ApiProblem('invalid_api_key', message('auth.key_invalid'));
  const key = await store.find(hashKey(match[1]), beforeLookup);
  if (!key) throw new ApiProblem('invalid_api_key', message('auth.key_invalid'));
  return key;
}

/** 401s of a key that exists: revoked (past its renewal overlap) or expired. */
export function checkKeyValid(key: KeyRecord, now = new Date()): void {
  if (key.revokedAt && key.revokedAt <= now) throw new ApiProblem('api_key_revoked', message('auth.key_revoked'));
  if (key.expiresAt && key.expiresAt <= now) {
    throw new ApiProblem('api_key_expired', message('auth.key_expired', { time: key.expiresAt.toISOString() }));
  }
}

/** 403s that do not depend on the operation: address, suspension, subscription. */
export function admitKey(key: KeyRecord, clientIp: string): AuthContext {
  if (key.allowedIps.length > 0 && !inRanges(clientIp, key.allowedIps)) {
    throw new ApiProblem('ip_not_allowed', message('auth.ip_not_allowed', { address: clientIp }));
  }
  if (key.company.suspended) throw new ApiProblem('account_suspended', message('auth.account_suspended'));
  if (!key.company.subscriptionActive) {
    throw new ApiProblem('subscription_inactive', message('auth.subscription_inactive'));
  }
  return { key, companyId: key.company.id, scopes: new Set(key.scopes), clientIp };
}

export function requireScope(auth: AuthContext, scope: string | null): void {
  if (scope && !auth.scopes.has(scope)) {
    throw new ApiProblem('insufficient_scope', message('auth.scope_needed', { scope }), { required_scope: scope });
  }
}

/** Any one of the features suffices. */
export function requireFeature(auth: AuthContext, features: readonly string[]): void {
  if (features.length > 0 && !features.some((f) => auth.key.company.features.includes(f))) {
    throw new ApiProblem('feature_not_available', message('auth.feature_needed', { features }));
  }
}
