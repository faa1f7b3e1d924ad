// What the keyless pages outside the API share (the review page, the online quote and invoice): one
// self-contained HTML document (inline CSS, no script, nothing loaded from elsewhere: the Content-Security-Policy
// says so), their security headers, the refusal of a form posted from another site, and the per-address window.
import type { Context, MiddlewareHandler } from 'hono';
import type { Child } from 'hono/jsx';
import { clientAddress } from '../auth/ip.ts';
import type { Config } from '../config.ts';
import type { Language } from '../languages.ts';
import { chooseLanguage } from './language.ts';
import type { RateDecision, RateLimits } from './rate-limit.ts';
import { socketAddress } from './request-address.ts';

/** The styles every page shares; a page adds its own. */
const BASE_STYLE = `
*{box-sizing:border-box}
body{font:1.05rem/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#f4f4f5}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.5rem;border:1px solid #d4d4d8}
h1{font-size:1.5rem;margin:0 0 .5rem}
button,.button{font:inherit;font-weight:600;padding:.65rem 1.3rem;background:#1d4ed8;color:#fff;border:0;border-radius:.3rem;cursor:pointer;text-decoration:none;display:inline-block}
button:hover,.button:hover{background:#1e40af}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.error{color:#b91c1c;font-weight:600;margin:.25rem 0}
`;

export function PageShell(props: { language: Language; title: string; style?: string; children: Child }) {
  return (
    <html lang={props.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <style>{BASE_STYLE + (props.style ?? '')}</style>
      </head>
      <body>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** Headers of every page: nothing loaded from elsewhere, not framed, not cached, the token not passed on. */
export function protectPage(c: Context) {
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  c.header('X-Frame-Options', 'DENY');
  // same-origin, not no-referrer: with no-referrer browsers send the form's Origin as "null", which the POST refuses.
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
}

/** A POST from another site: its Origin is neither the service's public address nor the address it was sent to. */
export function crossSite(c: Context, publicUrl: string): boolean {
  if (c.req.header('sec-fetch-site') === 'cross-site') return true;
  const origin = c.req.header('origin');
  if (!origin || origin === 'null') return origin === 'null';
  return origin !== new URL(publicUrl).origin && origin !== new URL(c.req.url).origin;
}

/** The headers of a keyless page's 429: the window that refused (RateLimit, RateLimit-Policy) and Retry-After. */
export function refusalHeaders(c: Context, decision: RateDecision) {
  for (const [name, value] of Object.entries(decision.headers)) c.header(name, value);
  c.header('Retry-After', String(Math.max(1, decision.retryAfter)));
}

/**
 * A keyless page's window per client address: past it, `refuse` answers (a 429 page in the language the browser
 * asks for, the record not looked up) with Retry-After and the RateLimit headers the API's keyless operations carry.
 */
export function pageWindow(
  config: Config,
  limits: RateLimits,
  refuse: (c: Context, language: Language) => Response | Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const address = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), config.trustedProxies);
    const decision = await limits.consume(address);
    if (!decision.allowed) {
      refusalHeaders(c, decision);
      return refuse(c, chooseLanguage(c.req.header('accept-language')));
    }
    await next();
    // A page refused by a window of its own (a PDF's renders) reports that window, not this one.
    if (c.res.status === 429 && c.res.headers.has('RateLimit')) return;
    for (const [name, value] of Object.entries(decision.headers)) c.res.headers.set(name, value);
  };
}
