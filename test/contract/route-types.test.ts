// The generated zod routes and openapi-typescript's types describe the same contract: for every operation
// the request body, path parameters, query and every JSON response body have the same TypeScript type.
// The assertions are checked by `tsc` (npm run typecheck, part of npm test); the runtime test below makes
// sure the two generated files cover the same operations.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { operations } from '../../generated/api.d.ts';
import { operations as operationTable } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';

type Routes = typeof routes;
type Id = keyof Routes & keyof operations;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Json<C> = C extends { 'application/json': infer M } ? M : never;
type SchemaOf<M> = M extends { schema: infer S extends z.ZodType } ? S : never;

// Request body: what a client sends (zod input type, so defaults stay optional).
// Only JSON bodies: a multipart file is a File at run time and a `string` in openapi-typescript's model.
type ZodBody<R> = R extends { request: { body: { content: infer C } } } ? z.input<SchemaOf<Json<C>>> : never;
type SpecBody<O> = O extends { requestBody?: { content: infer C } } ? Json<C> : never;

// Path parameters as the handler sees them.
type ZodParams<R> = R extends { request: { params: infer P extends z.ZodType } } ? z.output<P> : never;
type SpecParams<O> = O extends { parameters: { path: infer P } } ? ([P] extends [never] ? never : P) : never;

// Query: openapi-typescript marks parameters with defaults optional, the parsed zod output fills them in.
// Every route has a query object, also an operation without query parameters (an empty one, so that any
// parameter is unknown), which openapi-typescript writes as `query?: never`.
type ZodQuery<R> = R extends { request: { query: infer Q extends z.ZodType } }
  ? [z.output<Q>] extends [Record<string, never>]
    ? never
    : Partial<z.output<Q>>
  : 'no query object';
type SpecQuery<O> = O extends { parameters: { query?: infer Q } }
  ? [Q] extends [undefined]
    ? never
    : Partial<Exclude<Q, undefined>>
  : never;

// JSON and problem+json response bodies per status (a file download's bytes are left out, as above).
type JsonLike<C> = C extends { 'application/json': infer M }
  ? M
  : C extends { 'application/problem+json': infer M }
    ? M
    : never;
type ZodResponses<R> = R extends { responses: infer Rs }
  ? { [S in keyof Rs]: Rs[S] extends { content: infer C } ? z.output<SchemaOf<JsonLike<C>>> : never }
  : never;
type SpecResponses<O> = O extends { responses: infer Rs }
  ? { [S in keyof Rs]: Rs[S] extends { content: infer C } ? JsonLike<C> : never }
  : never;

type Check<F extends 'body' | 'params' | 'query' | 'responses'> = {
  [K in Id]: F extends 'body'
    ? Equal<ZodBody<Routes[K]>, SpecBody<operations[K]>>
    : F extends 'params'
      ? Equal<ZodParams<Routes[K]>, SpecParams<operations[K]>>
      : F extends 'query'
        ? Equal<ZodQuery<Routes[K]>, SpecQuery<operations[K]>>
        : Equal<ZodResponses<Routes[K]>, SpecResponses<operations[K]>>;
};
type AllTrue = { [K in Id]: true };

describe('generated zod routes', () => {
  it('have the same request and response types as openapi-typescript, operation by operation', () => {
    expectTypeOf<Check<'body'>>().toEqualTypeOf<AllTrue>();
    expectTypeOf<Check<'params'>>().toEqualTypeOf<AllTrue>();
    expectTypeOf<Check<'query'>>().toEqualTypeOf<AllTrue>();
    expectTypeOf<Check<'responses'>>().toEqualTypeOf<AllTrue>();
  });

  it('cover exactly the operations of the operation table', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(operationTable).sort());
  });

  it('close the query of every operation, also one that declares no query parameter', () => {
    const open = Object.entries(routes)
      .filter(([, route]) => {
        const request = (route as { request?: { query?: z.ZodObject | z.ZodPipe } }).request;
        // A query with deepObject parameters (metadata[key]) is gathered first, then checked by its object.
        const query = request?.query instanceof z.ZodPipe ? request.query.out : request?.query;
        return !(query instanceof z.ZodObject) || query.def.catchall?._zod.def.type !== 'never';
      })
      .map(([id]) => id);
    expect(open).toEqual([]);
  });
});
