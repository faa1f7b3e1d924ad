// Which operation a request is and whether it may be made: the operation (404/405), the key (401), the rate
// limits (429), the address and account (403), scope and feature (403). Sets the request's operation, auth,
// tenant and language; collects the RateLimit headers the answer carries.
import type { Context } from 'hono';
import { clientAddress } from '../auth/ip.ts';
import { tenantOf } from '../db/tenant.ts';
import type { Deps } from '../deps.ts';
import type { AppEnv } from './app-env.ts';
import { type AuthContext, admitKey, checkKeyValid, identifyKey, requireFeature, requireScope } from './key-checks.ts';
import { chooseLanguage } from './language.ts';
import type { Message } from './message-catalogue.ts';
import { message } from './messages.ts';
import { matchOperation } from './operation-match.ts';
import { ApiProblem } from './problems.ts';
import type { RateLimits } from './rate-limit.ts';
import { API_PREFIX, socketAddress } from './request-address.ts';

export async function admit(c: Context<AppEnv>, headers: Record<string, string>): Promise<void> {
  const deps = c.get('deps');
  const path = new URL(c.req.url).pathname.slice(API_PREFIX.length) || '/';
  const match = matchOperation(c.req.method, path);
  if ('none' in match)
    throw new ApiProblem('not_found', message('request.no_operation', { path: `${API_PREFIX}${path}` }));
  if ('allowed' in match) {
    throw new ApiProblem(
      'method_not_allowed',
      message('request.use_methods', { methods: match.allowed }),
      {},
      { Allow: match.allowed.join(', ') },
    );
  }
  const { id, operation } = match.found;
  c.set('operationId', id);
  c.set('operation', operation);
  if (operation.authenticated) {
    const clientIp = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), deps.config.trustedProxies);
    let auth: AuthContext;
    try {
      const key = await identifyKey(c.req.header('authorization'), deps.keys, () =>
        refuseSpentAddress(deps, clientIp, headers),
      );
      // From here on the company is known: its language answers even a revoked key.
      c.set('language', chooseLanguage(c.req.header('accept-language'), key.company.language));
      checkKeyValid(key);
      auth = admitKey(key, clientIp);
    } catch (error) {
      // Requests a key may not make — no valid key, or one used from outside its allowed addresses or for a
      // suspended company — are limited per client address, so keys cannot be guessed quickly, and are not
      // counted against the key: someone holding a leaked key elsewhere cannot use up its owner's limit. A failure
      // of ours (the key store's database unreachable) is no refused key: it costs the address nothing (its answer
      // shows the address's window as it stands: addressWindow).
      if (!(error instanceof ApiProblem) || error.code === 'rate_limited') throw error;
      const decision = await deps.authFailureLimits.consume(clientIp);
      Object.assign(headers, decision.headers);
      if (!decision.allowed) throw rateLimited(decision.retryAfter, message('auth.too_many_failures'));
      throw error;
    }
    const decision = await deps.keyLimits.consume(auth.key.id, auth.key.company.rateLimits);
    Object.assign(headers, decision.headers);
    if (!decision.allowed) throw rateLimited(decision.retryAfter, message('auth.key_rate_limited'));
    requireScope(auth, operation.scope);
    requireFeature(auth, operation.features);
    c.set('auth', auth);
    c.set('tenant', tenantOf(deps, auth.companyId));
  } else {
    // Operations without a key (a signed download, the widget's visitor API) are limited per client address.
    const clientIp = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), deps.config.trustedProxies);
    for (const { limits, detail } of keylessWindows(deps, id, operation.path)) {
      const decision = await limits.consume(clientIp);
      Object.assign(headers, decision.headers);
      if (!decision.allowed) throw rateLimited(decision.retryAfter, detail);
    }
  }
}

/**
 * The per-address windows a keyless operation counts in, in order: downloads in theirs, the public review feed
 * and widget (paths under /public/) in theirs, the widget's visitor API (paths under /widget/) in its own, a new
 * widget session in both of the widget's. The incoming channels count only their failed authentications.
 */
function keylessWindows(deps: Deps, id: string, path: string): { limits: RateLimits; detail: Message }[] {
  if (id === 'downloadFile') return [{ limits: deps.downloadLimits, detail: message('request.too_many_downloads') }];
  if (path.startsWith('/public/'))
    return [{ limits: deps.publicLimits, detail: message('request.too_many_public_requests') }];
  if (!path.startsWith('/widget/')) return [];
  const widget = { limits: deps.widgetLimits, detail: message('request.too_many_widget_requests') };
  if (id === 'createWidgetSession') {
    return [widget, { limits: deps.widgetSessionLimits, detail: message('request.too_many_widget_sessions') }];
  }
  return [widget];
}

/**
 * An address that has used up its failed authentications gets no key looked up in the database (each lookup is a
 * transaction, so the limit would not spare the database): a key this process holds in its cache is judged as
 * always, any other is refused until the window frees up.
 */
async function refuseSpentAddress(deps: Deps, clientIp: string, headers: Record<string, string>): Promise<void> {
  const decision = await deps.authFailureLimits.check(clientIp);
  if (decision.allowed) return;
  Object.assign(headers, decision.headers);
  throw rateLimited(decision.retryAfter, message('auth.too_many_failures'));
}

const rateLimited = (retryAfter: number, detail: Message) =>
  new ApiProblem('rate_limited', detail, {}, { 'Retry-After': String(Math.max(1, retryAfter)) });
