// A handler is typed by its operation's generated route: `Handler<'getCustomer'>` knows the path parameters,
// query, body and every response the contract allows. A resource exports `handlers = { … } satisfies
// Partial<Handlers>`; src/resources/index.ts merges them and src/app.ts binds each to its route.
import type { RouteHandler } from '@hono/zod-openapi';
import type { OperationId } from '../../generated/operations.ts';
import type { routes } from '../../generated/routes.ts';
import type { AppEnv } from './app-env.ts';

export type Handler<Id extends OperationId> = RouteHandler<(typeof routes)[Id], AppEnv>;
export type Handlers = { [Id in OperationId]: Handler<Id> };
