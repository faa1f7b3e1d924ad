// The customer's review page at a request's `url` ({PUBLIC_URL}/review/{token}): no key, the link's token is the
// permission (like the unsubscribe page, it is served outside the API's contract). Server-rendered with hono/jsx,
// one self-contained document (inline CSS, no script, nothing loaded from elsewhere: the Content-Security-Policy
// says so), in the request's language. GET shows the form and marks the request opened; POST creates the review
// once. Answers: 200 form or thanks, 303 after a review was received (so a reload does not send it again),
// 403 a form without its token and cookie or from another site, 404 an unknown link, 409 a request answered
// already, 410 one that expired or was cancelled, 413 a body too large, 415 not a form, 422 a form with errors
// (shown next to the fields).

import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Child } from 'hono/jsx';
import { withTenant } from '../../db/tenant.ts';
import type { Deps } from '../../deps.ts';
import { FORM_SECONDS, FormTokens, NONCE } from '../../http/form-token.ts';
import { pageLanguage } from '../../http/language.ts';
import { crossSite, PageShell, pageWindow, protectPage } from '../../http/public-page.tsx';
import type { Language } from '../../languages.ts';
import {
  ANSWER_LIMITS,
  type AnswerField,
  type AnswerProblem,
  completeRequest,
  lockedState,
  openRequest,
  readAnswer,
} from './answers.ts';
import * as q from './queries.ts';
import { FIELD_ERRORS, fillShop, PAGE_TEXTS, RATING_LABELS } from './review-page-texts.ts';
import { companyOfToken } from './tokens.ts';

const MAX_FORM_BYTES = 32 * 1024;
const FORM_COOKIE = 'review_form';

const STYLE = `
fieldset{border:0;margin:1.25rem 0;padding:0}
legend,label.field{display:block;font-weight:600;margin-bottom:.35rem}
.stars{display:flex;flex-direction:column;gap:.25rem}
.stars label{display:flex;align-items:center;gap:.5rem;padding:.35rem .5rem;border-radius:.3rem;cursor:pointer}
.stars label:hover{background:#eef2ff}
input[type=radio],input[type=checkbox]{width:1.2rem;height:1.2rem;accent-color:#1d4ed8;margin:0}
input[type=text],textarea{width:100%;font:inherit;padding:.5rem;border:1px solid #52525b;border-radius:.3rem;color:#1a1a1a;background:#fff}
textarea{min-height:7rem;resize:vertical}
.hint{color:#3f3f46;font-size:.95rem;margin:.1rem 0 .35rem}
.row{margin:1.25rem 0}
.consent{display:flex;gap:.6rem;align-items:flex-start}
.summary{border:2px solid #b91c1c;border-radius:.3rem;padding:.75rem 1rem;margin:1rem 0}
.summary h2{font-size:1.1rem;margin:0 0 .25rem;color:#b91c1c}
[aria-invalid=true]{border-color:#b91c1c;border-width:2px}
`;

/** A text with the company's name filled in. */
const say = (key: keyof typeof PAGE_TEXTS, language: Language, shop: string) =>
  fillShop(PAGE_TEXTS[key][language], shop);

const Page = (props: { language: Language; title: string; children: Child }) => (
  <PageShell language={props.language} title={props.title} style={STYLE}>
    {props.children}
  </PageShell>
);

type FormValues = Partial<Record<AnswerField | 'consent', string>>;
type FormErrors = Partial<Record<AnswerField, AnswerProblem>>;

function ReviewForm(props: {
  language: Language;
  shop: string;
  formToken: string;
  values: FormValues;
  errors: FormErrors;
}) {
  const { language: l, shop, values, errors } = props;
  const errorOf = (field: AnswerField) => {
    const problem = errors[field];
    return problem ? FIELD_ERRORS[field][problem]?.[l] : undefined;
  };
  const fields: AnswerField[] = ['rating', 'comment', 'name', 'city'];
  const wrong = fields.filter((field) => errorOf(field));
  const FieldError = (p: { field: AnswerField }) =>
    errorOf(p.field) ? (
      <p class="error" id={`${p.field}-error`}>
        {errorOf(p.field)}
      </p>
    ) : null;
  const describedBy = (field: AnswerField, hint?: string) =>
    [hint, errorOf(field) ? `${field}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <>
      <p>{say('intro', l, shop)}</p>
      {wrong.length > 0 ? (
        <div class="summary" role="alert" tabindex={-1} id="errors">
          <h2>{say('errorsHeading', l, shop)}</h2>
          <ul>
            {wrong.map((field) => (
              <li>
                <a href={`#${field === 'rating' ? 'rating-1' : field}`}>{errorOf(field)}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form method="post" novalidate>
        <input type="hidden" name="form_token" value={props.formToken} />
        <fieldset aria-describedby={describedBy('rating')} aria-invalid={errors.rating ? 'true' : undefined}>
          <legend>{say('rating', l, shop)}</legend>
          <FieldError field="rating" />
          <div class="stars">
            {RATING_LABELS[l].map((label, index) => (
              <label for={`rating-${index + 1}`}>
                <input
                  type="radio"
                  id={`rating-${index + 1}`}
                  name="rating"
                  value={String(index + 1)}
                  required
                  checked={values.rating === String(index + 1)}
                />
                <span aria-hidden="true">{'★'.repeat(index + 1)}</span>
                <span>{label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div class="row">
          <label class="field" for="comment">
            {say('comment', l, shop)}
          </label>
          <p class="hint" id="comment-hint">
            {say('commentHint', l, shop)}
          </p>
          <FieldError field="comment" />
          <textarea
            id="comment"
            name="comment"
            maxlength={ANSWER_LIMITS.comment}
            aria-describedby={describedBy('comment', 'comment-hint')}
            aria-invalid={errors.comment ? 'true' : undefined}
          >
            {values.comment ?? ''}
          </textarea>
        </div>
        <div class="row">
          <label class="field" for="name">
            {say('name', l, shop)}
          </label>
          <FieldError field="name" />
          <input
            type="text"
            id="name"
            name="name"
            autocomplete="name"
            required
            maxlength={ANSWER_LIMITS.name}
            value={values.name ?? ''}
            aria-describedby={describedBy('name')}
            aria-invalid={errors.name ? 'true' : undefined}
          />
        </div>
        <div class="row">
          <label class="field" for="city">
            {say('city', l, shop)}
          </label>
          <FieldError field="city" />
          <input
            type="text"
            id="city"
            name="city"
            autocomplete="address-level2"
            maxlength={ANSWER_LIMITS.city}
            value={values.city ?? ''}
            aria-describedby={describedBy('city')}
            aria-invalid={errors.city ? 'true' : undefined}
          />
        </div>
        <div class="row consent">
          <input type="checkbox" id="consent" name="consent" value="yes" checked={values.consent === 'yes'} />
          <label for="consent">{say('consent', l, shop)}</label>
        </div>
        <button type="submit">{say('submit', l, shop)}</button>
      </form>
    </>
  );
}

function message(
  c: Context,
  language: Language,
  shop: string,
  title: string,
  text: string,
  status: 200 | 403 | 404 | 409 | 410 | 413 | 415 | 429,
  link?: string,
) {
  protectPage(c);
  return c.html(
    <Page language={language} title={title}>
      <p>{text}</p>
      {link ? (
        <p>
          <a class="button" href={link}>
            {say('reopen', language, shop)}
          </a>
        </p>
      ) : null}
    </Page>,
    status,
  );
}

/**
 * The review pages' per-address window (the page and its unsubscribe page): every visit looks up, and a POST
 * locks, the request's row, so one address gets REVIEW_PAGE_WINDOWS' visits a minute, then a 429 page in the
 * language its browser asks for (the request's own is not looked up), with Retry-After and the RateLimit headers
 * the API's keyless operations carry.
 */
export const reviewPageWindow = (deps: Deps) =>
  pageWindow(deps.config, deps.reviewPageLimits, (c, l) =>
    message(c, l, '', say('tooManyTitle', l, ''), say('tooMany', l, ''), 429),
  );

export function reviewPages(deps: Deps) {
  const tokens = new FormTokens('review', deps.linkSecrets.current, deps.linkSecrets.previous);
  const secureCookie = deps.config.publicUrl.startsWith('https:');
  const pages = new Hono();
  // Without a request to take the language from, the page answers in the one the visitor asks for.
  const asked = (c: Context) => pageLanguage(c.req.query('lang'), c.req.header('accept-language'));
  const unknown = (c: Context, status: 404 | 403 = 404) => {
    const l = asked(c);
    return message(c, l, '', PAGE_TEXTS.unknownTitle[l], PAGE_TEXTS.unknown[l], status);
  };
  const forbidden = (c: Context, status: 403 | 413 | 415, pageUrl: string) => {
    const l = asked(c);
    return message(c, l, '', PAGE_TEXTS.forbiddenTitle[l], PAGE_TEXTS.forbidden[l], status, pageUrl);
  };

  pages.get('/:token', async (c) => {
    const token = c.req.param('token');
    const companyId = companyOfToken(token);
    if (!companyId) return unknown(c);
    // The nonce of an earlier visit is kept: a form still open in another tab stays valid.
    const kept = getCookie(c, FORM_COOKIE);
    const nonce = kept && NONCE.test(kept) ? kept : tokens.newNonce();
    const shown = await withTenant(deps.db, companyId, async (tx) => {
      const state = await openRequest(tx, companyId, token, new Date());
      return { state, shop: state.kind === 'unknown' ? '' : await q.companyName(tx, companyId) };
    });
    const { state, shop } = shown;
    if (state.kind === 'unknown') return unknown(c);
    const l = state.request.language;
    if (state.kind === 'answered') return message(c, l, shop, say('thanksTitle', l, shop), say('thanks', l, shop), 200);
    if (state.kind === 'closed') return message(c, l, shop, say('closedTitle', l, shop), say('closed', l, shop), 410);
    protectPage(c);
    setCookie(c, FORM_COOKIE, nonce, {
      path: `/review/${token}`,
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookie,
      maxAge: FORM_SECONDS,
    });
    return c.html(
      <Page language={l} title={say('title', l, shop)}>
        <ReviewForm
          language={l}
          shop={shop}
          formToken={tokens.issue(state.request.id, nonce)}
          values={{}}
          errors={{}}
        />
      </Page>,
    );
  });

  pages.post('/:token', async (c) => {
    const token = c.req.param('token');
    const companyId = companyOfToken(token);
    if (!companyId) return unknown(c);
    const pageUrl = c.req.path;
    if (crossSite(c, deps.config.publicUrl)) return forbidden(c, 403, pageUrl);
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return forbidden(c, 415, pageUrl);
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_FORM_BYTES) return forbidden(c, 413, pageUrl);
    const raw = await c.req.text();
    if (Buffer.byteLength(raw) > MAX_FORM_BYTES) return forbidden(c, 413, pageUrl);
    const form = Object.fromEntries(new URLSearchParams(raw));
    const nonce = getCookie(c, FORM_COOKIE);

    const outcome = await withTenant(deps.db, companyId, async (tx) => {
      const state = await lockedState(tx, companyId, token, new Date());
      if (state.kind === 'unknown') return { kind: 'unknown' as const };
      const shop = await q.companyName(tx, companyId);
      if (state.kind !== 'open') return { ...state, shop };
      if (!tokens.verify(form.form_token ?? '', state.request.id, nonce))
        return { kind: 'forged' as const, request: state.request, shop };
      const { answer, errors } = readAnswer(form);
      if (!answer) return { kind: 'invalid' as const, request: state.request, shop, errors };
      await completeRequest(tx, state.request, answer);
      return { kind: 'received' as const, shop };
    });

    if (outcome.kind === 'unknown') return unknown(c);
    if (outcome.kind === 'received') return c.redirect(pageUrl, 303);
    const { shop } = outcome;
    const l = outcome.request.language;
    if (outcome.kind === 'answered')
      return message(c, l, shop, say('alreadyTitle', l, shop), say('already', l, shop), 409);
    if (outcome.kind === 'closed') return message(c, l, shop, say('closedTitle', l, shop), say('closed', l, shop), 410);
    if (outcome.kind === 'forged')
      return message(c, l, shop, say('forbiddenTitle', l, shop), say('forbidden', l, shop), 403, pageUrl);
    // A form with errors: shown again with what was typed, the same token and cookie still valid.
    protectPage(c);
    return c.html(
      <Page language={l} title={say('title', l, shop)}>
        <ReviewForm language={l} shop={shop} formToken={form.form_token ?? ''} values={form} errors={outcome.errors} />
      </Page>,
      422,
    );
  });
  return pages;
}
