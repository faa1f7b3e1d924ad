// createApp(deps): the OpenAPIHono app with the pipeline, every operation's handler (or its 501), the
// served contract, and problems for everything that goes wrong.

import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { compress } from 'hono/compress';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { type OperationId, operations } from '../generated/operations.ts';
import { routes } from '../generated/routes.ts';
import type { Deps } from './deps.ts';
import type { AppEnv } from './http/app-env.ts';
import { serveDocs } from './http/docs.ts';
import { errorPage } from './http/error-pages.ts';
import { answerOfFailure } from './http/failures.ts';
import { message } from './http/messages.ts';
import { serveMetrics } from './http/metrics.ts';
import { API_PREFIX, apiPipeline, requestContext } from './http/pipeline.ts';
import { pointers } from './http/pointers.ts';
import { livez, readyz } from './http/probes.ts';
import { ApiProblem, problemResponse } from './http/problems.ts';
import { addLaterPartErrors } from './http/skipped-parts.ts';
import { takesUpload } from './http/upload.ts';
import { InvalidInputs } from './http/validation.ts';
import { serveCompanyContract } from './resources/custom-fields/contract.ts';
import { documentPages, documentPageWindow } from './resources/document-pages/pages.tsx';
import { builtOperations, handlers, messageCatalogue, notImplementedOperations } from './resources/index.ts';
import { reviewPages, reviewPageWindow } from './resources/reviews/review-page.tsx';
import { unsubscribePages } from './resources/reviews/unsubscribe-page.ts';
import { serveWidgetScript } from './resources/widget/script.ts';

/**
 * Whether the routes' own document lists the operation. Served but not listed (the served contract is
 * generated/openapi.*.json either way): uploads and raw bodies (bound without the body's validator, see below),
 * binary answers (GET /files/{token}, PDFs: no JSON schema zod could document) and the keyless operations (the
 * widget's visitor API, the public review feed, the incoming channels: no scheme of theirs there).
 */
export const inRoutesDocument = (id: OperationId): boolean =>
  boundWithBodyValidator(id) && !operations[id].binary && operations[id].authenticated;

/** Whether the route validates the body; uploads, raw bodies and per-item batches are judged by their handler. */
const boundWithBodyValidator = (id: OperationId): boolean =>
  !takesUpload(id) && operations[id].rawBodyMaxBytes === null && !operations[id].validatedPerItem;

export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: async (result, c) => {
      if (!result.success) {
        // `data` is the input that failed (present at run time, missing from the hook's declared type).
        const data = (result as { data?: unknown }).data;
        const found = new InvalidInputs().addIssues(result.error, result.target, data);
        await addLaterPartErrors(c, result.target, found);
        throw found.problem();
      }
    },
  });

  app.use('*', requestContext(deps));
  app.use('*', deps.metrics.requests());
  if (deps.config.METRICS_TOKEN) app.get('/metrics', serveMetrics(deps.config.METRICS_TOKEN));

  // The contract is a megabyte of JSON: compressed like the docs.
  app.use(`${API_PREFIX}/openapi.json`, compress());
  // With a key, the key's company's own contract: its custom fields typed (src/resources/custom-fields/contract.ts).
  app.get(`${API_PREFIX}/openapi.json`, serveCompanyContract(deps, messageCatalogue));
  app.use('/docs/*', compress());
  app.get('/docs', serveDocs(deps.config.publicUrl, messageCatalogue));
  app.get('/docs/:lang', serveDocs(deps.config.publicUrl, messageCatalogue));

  app.get('/errors/:code', errorPage);
  for (const path of ['/', API_PREFIX, `${API_PREFIX}/`, '/errors', '/errors/'])
    app.get(path, pointers(deps.config.publicUrl));
  // Pages for the recipients of review requests: no key, the link's token is the permission; a window per address.
  app.use('/review/*', reviewPageWindow(deps));
  app.route('/review', unsubscribePages(deps));
  // The online quote and invoice (a document's public_url): the same kind of keyless page, a window of its own.
  app.use('/quote/*', documentPageWindow(deps));
  app.use('/invoice/*', documentPageWindow(deps));
  app.route('/', documentPages(deps));
  // The web-chat widget: its script, and its visitor API, the one part of the API that pages on other origins
  // call (no cookies; the visitor token is a header). Every other operation stays without CORS headers.
  app.get('/widget.js', serveWidgetScript);
  app.use(
    `${API_PREFIX}/widget/*`,
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST'],
      allowHeaders: ['Authorization', 'Content-Type', 'Accept-Language'],
      exposeHeaders: ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'Content-Language'],
      maxAge: 600,
    }),
  );
  app.route('/review', reviewPages(deps));
  app.get('/livez', livez);
  app.get('/readyz', readyz);

  const onError = (error: Error, c: Context<AppEnv>) => {
    if (error instanceof ApiProblem) return problemResponse(c, error);
    // A refusal of hono's own (the route's media-type gate) that the pipeline's checks did not see first: still
    // the problem of its status, not an unexpected failure.
    if (error instanceof HTTPException && error.status === 415) {
      return problemResponse(c, new ApiProblem('unsupported_media_type', message('body.send_json')));
    }
    return answerOfFailure(c, error);
  };
  const api = new OpenAPIHono<AppEnv>({ defaultHook: app.defaultHook });
  api.use('*', apiPipeline());
  for (const id of builtOperations) {
    if (boundWithBodyValidator(id)) {
      api.openapiRoutes([{ route: { ...routes[id], hide: !inRoutesDocument(id) }, handler: handlers[id] }]);
      continue;
    }
    // An upload's body is streamed by its handler (src/http/upload.ts), and a raw body (a signed webhook, an email)
    // is read as bytes by its handler: bound without the body's validator, which would read and judge the body
    // before the handler could authenticate it, and not listed in the routes' own document. A batch validated per
    // item (POST /customers/batch) answers an invalid item in that item's outcome, not with one 422 for the body.
    const { request, ...route } = routes[id];
    const withoutBody = Object.fromEntries(Object.entries(request).filter(([part]) => part !== 'body'));
    api.openapiRoutes([{ route: { ...route, request: withoutBody, hide: true }, handler: handlers[id] }]);
  }
  for (const id of notImplementedOperations) {
    const { method, honoPath } = operations[id];
    api.on(method.toUpperCase(), honoPath, () => {
      throw new ApiProblem('not_implemented', message('request.not_implemented', { operation: id }));
    });
  }
  api.onError(onError);
  app.route(API_PREFIX, api);

  app.notFound((c) => problemResponse(c, new ApiProblem('not_found', message('request.nothing_here'))));
  app.onError(onError);
  return app;
}
