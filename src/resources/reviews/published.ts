// The company's public reviews for its website, needing no key: the JSON feed and the embeddable widget script
// (which carries the same reviews in it, so a visitor's browser loads nothing else and needs no CORS). Both are
// cacheable: Cache-Control public for 5 minutes and an ETag of the content, with 304 for If-None-Match.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { withTenant } from '../../db/tenant.ts';
import { fillCounted, formatDateOn, formatNumber } from '../../domain/locale-format.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { ApiProblem } from '../../http/problems.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';
import { LANGUAGES, type Language } from '../../languages.ts';
import { reviewMessages } from './messages.ts';
import * as q from './queries.ts';
import type { ReviewRow } from './serialize.ts';

export const CACHE_CONTROL = 'public, max-age=300';

export function serializePublishedReview(row: ReviewRow) {
  return {
    object: 'published_review' as const,
    id: row.id,
    rating: row.rating,
    comment: row.comment,
    author: { name: row.authorName, city: row.authorCity },
    language: row.language,
    is_verified: row.isVerified,
    reply: row.reply,
    replied_at: isoOrNull(row.repliedAt),
    reviewed_at: iso(row.reviewedAt),
  };
}

/** The feed of the company a widget id names; 404 for an unknown id. */
export async function feedOf(c: Context<AppEnv>, widgetId: string, limit: number) {
  const { db } = c.get('deps');
  const company = await q.companyOfWidget(db, widgetId);
  if (!company) throw new ApiProblem('not_found', reviewMessages.message('review_widget.not_found'));
  const { average, count, rows } = await withTenant(db, company.id, (tx) => q.publishedReviews(tx, company.id, limit));
  const feed = {
    object: 'published_review_feed' as const,
    company: { name: company.name },
    aggregate_rating: { average, count, best: 5, worst: 1 },
    data: rows.map(serializePublishedReview),
  };
  const language = LANGUAGES.find((l) => l === company.language) ?? 'en';
  return { feed, language, timeZone: company.timeZone };
}

export type Feed = Awaited<ReturnType<typeof feedOf>>['feed'];

/** A review's day on the company's clock, as `YYYY-MM-DD` (a review at 00:40 in Amsterdam is of that day). */
const dayOn = (instant: string, timeZone: string) => new Date(instant).toLocaleDateString('en-CA', { timeZone });

/** The tag of a body; a request whose If-None-Match names it gets 304. */
export function contentTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

export function notModified(c: Context, tag: string): boolean {
  const given = c.req.header('if-none-match');
  if (!given) return false;
  return given.trim() === '*' || given.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

/** schema.org JSON-LD of the company with its aggregate rating and the reviews shown. */
export function jsonLd(feed: Feed, timeZone: string) {
  const { average, count } = feed.aggregate_rating;
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: feed.company.name,
    ...(average !== null && count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: average,
            reviewCount: count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    review: feed.data.map((r) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: r.author.name },
      datePublished: dayOn(r.reviewed_at, timeZone),
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
      ...(r.comment ? { reviewBody: r.comment } : {}),
    })),
  };
}

export const WIDGET_TEXTS = {
  title: { en: 'Reviews of {shop}', nl: 'Reviews van {shop}', de: 'Bewertungen von {shop}', fr: 'Avis sur {shop}' },
  summary: {
    en: '{average} out of 5 from {count|one:# review|other:# reviews}',
    nl: '{average} van 5 uit {count|one:# review|other:# reviews}',
    de: '{average} von 5 aus {count|one:# Bewertung|other:# Bewertungen}',
    fr: '{average} sur 5 sur la base de {count|one:# avis|other:# avis}',
  },
  none: { en: 'No reviews yet.', nl: 'Nog geen reviews.', de: 'Noch keine Bewertungen.', fr: 'Pas encore d’avis.' },
  stars: {
    en: '{n} out of 5 stars',
    nl: '{n} van 5 sterren',
    de: '{n} von 5 Sternen',
    fr: '{n|one:# étoile|other:# étoiles} sur 5',
  },
  reply: {
    en: 'Reply from {shop}',
    nl: 'Reactie van {shop}',
    de: 'Antwort von {shop}',
    fr: 'Réponse de {shop}',
  },
  verified: { en: 'Verified customer', nl: 'Geverifieerde klant', de: 'Verifizierter Kunde', fr: 'Client vérifié' },
} as const satisfies Record<string, Record<Language, string>>;

const WIDGET_CSS = `:host{all:initial;display:block;font:15px/1.5 system-ui,sans-serif;color:#1a1a1a}
section{border:1px solid #d4d4d8;border-radius:8px;padding:16px;background:#fff;max-width:640px}
h2{font-size:18px;margin:0 0 4px}.summary{margin:0 0 12px;color:#3f3f46}
ul{list-style:none;margin:0;padding:0}li{border-top:1px solid #e4e4e7;padding:12px 0}
.stars{color:#b45309;letter-spacing:2px}.author{font-weight:600}.meta{color:#52525b;font-size:13px}
.reply{margin:8px 0 0 12px;padding-left:10px;border-left:3px solid #1d4ed8}`;

/**
 * The widget's words in one language, with its counts and dates filled in as that language writes them: the
 * summary's count and each rating in their plural forms, each review's day on the company's clock.
 */
function widgetLanguage(feed: Feed, language: Language, timeZone: string) {
  const shop = feed.company.name;
  const { average, count } = feed.aggregate_rating;
  const say = (key: keyof typeof WIDGET_TEXTS, values: Record<string, string | number> = {}) =>
    fillCounted(WIDGET_TEXTS[key][language], { shop, ...values }, language);
  return {
    title: say('title'),
    summary:
      average === null || count === 0
        ? say('none')
        : say('summary', { average: formatNumber(average, language, 2), count }),
    reply: say('reply'),
    verified: say('verified'),
    // The label of each rating, 1 to 5 (index 0 is one star).
    stars: [1, 2, 3, 4, 5].map((n) => say('stars', { n })),
    dates: feed.data.map((r) => formatDateOn(r.reviewed_at, language, timeZone)),
  };
}

/**
 * The widget: a script with the feed, its texts and the JSON-LD in it. It builds its elements with textContent
 * only (a review's text can never become markup) inside a shadow root after its own script tag. It carries all
 * four languages and speaks the page's (the nearest `lang` attribute), unless `fixed` (the request's `lang`); a
 * page in another language gets `language`.
 */
export function widgetScript(feed: Feed, language: Language, timeZone: string, fixed = false): string {
  const i18n = Object.fromEntries(LANGUAGES.map((l) => [l, widgetLanguage(feed, l, timeZone)]));
  const data = { feed, i18n, css: WIDGET_CSS, jsonLd: jsonLd(feed, timeZone), lang: language, fixed };
  // `<` escaped: the data can never close a script element if a site inlines the widget.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `/* Reviews widget: ${feed.data.length} of ${feed.aggregate_rating.count} published reviews. */
(function () {
  var d = ${json};
  var s = document.currentScript;
  function pageLang() {
    var holder = s && s.closest ? s.closest('[lang]') : null;
    var tag = (holder && holder.getAttribute('lang')) || document.documentElement.getAttribute('lang') || '';
    var primary = tag.toLowerCase().split('-')[0];
    return Object.prototype.hasOwnProperty.call(d.i18n, primary) ? primary : d.lang;
  }
  var lang = d.fixed ? d.lang : pageLang();
  var L = d.i18n[lang];
  var host = document.createElement('div');
  host.setAttribute('data-crm-reviews', '');
  host.setAttribute('lang', lang);
  if (s && s.parentNode) s.parentNode.insertBefore(host, s.nextSibling); else document.body.appendChild(host);
  var root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  root.appendChild(el('style', null, d.css));
  var box = el('section');
  box.setAttribute('aria-label', L.title);
  box.appendChild(el('h2', null, L.title));
  box.appendChild(el('p', 'summary', L.summary));
  var list = el('ul');
  d.feed.data.forEach(function (r, i) {
    var item = el('li');
    var stars = el('span', 'stars', '\\u2605\\u2605\\u2605\\u2605\\u2605'.slice(0, r.rating) + '\\u2606\\u2606\\u2606\\u2606\\u2606'.slice(r.rating));
    stars.setAttribute('role', 'img');
    stars.setAttribute('aria-label', L.stars[r.rating - 1]);
    item.appendChild(stars);
    var who = el('div', 'meta');
    who.appendChild(el('span', 'author', r.author.name));
    if (r.author.city) who.appendChild(document.createTextNode(', ' + r.author.city));
    if (r.is_verified) who.appendChild(document.createTextNode(' \\u00b7 ' + L.verified));
    who.appendChild(document.createTextNode(' \\u00b7 ' + L.dates[i]));
    item.appendChild(who);
    if (r.comment) item.appendChild(el('p', 'comment', r.comment));
    if (r.reply) {
      var reply = el('div', 'reply');
      reply.appendChild(el('div', 'meta', L.reply));
      reply.appendChild(el('p', null, r.reply));
      item.appendChild(reply);
    }
    list.appendChild(item);
  });
  box.appendChild(list);
  root.appendChild(box);
  var ld = document.createElement('script');
  ld.type = 'application/ld+json';
  ld.textContent = JSON.stringify(d.jsonLd);
  document.head.appendChild(ld);
})();
`;
}
