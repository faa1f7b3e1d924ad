// The unsubscribe link of every review-request email, which needs no key (the link's token names the company
// and the request): GET shows a confirmation with one button (so that a mail scanner following links does not
// unsubscribe anyone), POST records the opt-out of the request's address and number (RFC 8058 one-click posts
// here too). An unknown link gets a plain page, never a stack trace.
import { type Context, Hono } from 'hono';
import { html } from 'hono/html';
import { withTenant } from '../../db/tenant.ts';
import type { Deps } from '../../deps.ts';
import { pageLanguage } from '../../http/language.ts';
import type { Language } from '../../languages.ts';
import * as q from './queries.ts';
import { companyOfToken } from './tokens.ts';

export const UNSUBSCRIBE_TEXTS = {
  title: { en: 'Unsubscribe', nl: 'Afmelden', de: 'Abmelden', fr: 'Se désinscrire' },
  ask: {
    en: 'Receive no more review requests from this company?',
    nl: 'Geen reviewverzoeken meer ontvangen van dit bedrijf?',
    de: 'Keine Bewertungsanfragen mehr von diesem Unternehmen erhalten?',
    fr: 'Ne plus recevoir de demandes d’avis de cette entreprise ?',
  },
  button: { en: 'Unsubscribe', nl: 'Afmelden', de: 'Abmelden', fr: 'Se désinscrire' },
  done: {
    en: 'You will receive no more review requests from this company.',
    nl: 'U ontvangt geen reviewverzoeken meer van dit bedrijf.',
    de: 'Sie erhalten keine Bewertungsanfragen mehr von diesem Unternehmen.',
    fr: 'Vous ne recevrez plus de demandes d’avis de cette entreprise.',
  },
  unknown: {
    en: 'This link is not valid.',
    nl: 'Deze link is niet geldig.',
    de: 'Dieser Link ist ungültig.',
    fr: 'Ce lien n’est pas valide.',
  },
} as const satisfies Record<string, Record<Language, string>>;

function page(language: Language, body: ReturnType<typeof html>) {
  return html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${UNSUBSCRIBE_TEXTS.title[language]}</title>
<style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#111;background:#fff}
button{font:inherit;padding:.6rem 1.2rem;background:#1d4ed8;color:#fff;border:0;border-radius:.3rem;cursor:pointer}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}</style></head>
<body><main><h1>${UNSUBSCRIBE_TEXTS.title[language]}</h1>${body}</main></body></html>`;
}

async function requestOf(deps: Deps, token: string) {
  const companyId = companyOfToken(token);
  if (!companyId) return null;
  const found = await withTenant(deps.db, companyId, (tx) => q.lockRequestByToken(tx, companyId, token));
  return found ? { companyId, request: found } : null;
}

/** An unknown link names no request to take the language from: the visitor's (`?lang=`, Accept-Language). */
function unknownLink(c: Context) {
  const l = pageLanguage(c.req.query('lang'), c.req.header('accept-language'));
  return c.html(page(l, html`<p>${UNSUBSCRIBE_TEXTS.unknown[l]}</p>`), 404, { 'Content-Language': l });
}

export function unsubscribePages(deps: Deps) {
  const pages = new Hono();
  pages.get('/:token/unsubscribe', async (c) => {
    const found = await requestOf(deps, c.req.param('token'));
    if (!found) return unknownLink(c);
    const l = found.request.language;
    return c.html(
      page(
        l,
        html`<p>${UNSUBSCRIBE_TEXTS.ask[l]}</p><form method="post"><button type="submit">${UNSUBSCRIBE_TEXTS.button[l]}</button></form>`,
      ),
    );
  });
  pages.post('/:token/unsubscribe', async (c) => {
    const token = c.req.param('token');
    const companyId = companyOfToken(token);
    const language = companyId
      ? await withTenant(deps.db, companyId, async (tx) => {
          const request = await q.lockRequestByToken(tx, companyId, token);
          if (!request) return null;
          for (const address of [request.recipientEmail, request.recipientPhone])
            if (address) await q.optOut(tx, companyId, address);
          return request.language;
        })
      : null;
    if (!language) return unknownLink(c);
    return c.html(page(language, html`<p>${UNSUBSCRIBE_TEXTS.done[language]}</p>`));
  });
  return pages;
}
