// /errors/{code}: the page behind every problem's `type` URI, in the request's language.
import type { Context } from 'hono';
import { type ProblemCode, problems } from '../../generated/problems.ts';
import { chooseLanguage } from './language.ts';
import { message } from './messages.ts';
import { ApiProblem, problemResponse, problemTitle } from './problems.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

const isCode = (code: string): code is ProblemCode => Object.hasOwn(problems, code);

export function errorPage(c: Context) {
  const code = c.req.param('code') ?? '';
  if (!isCode(code)) return problemResponse(c, new ApiProblem('not_found', message('request.unknown_error_code')));
  const language = chooseLanguage(c.req.header('accept-language'));
  const title = escapeHtml(problemTitle(code, language));
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>${title}</h1>
<p><code>${escapeHtml(code)}</code> · HTTP ${problems[code].status}</p>
<p><a href="/api/v1/openapi.json">OpenAPI reference</a></p>
</body></html>`;
  return c.html(html, 200, { 'Content-Language': language });
}
