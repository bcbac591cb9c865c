// The API's types, generated from api/openapi.yaml (npm run gen:api → apiSchema.gen.ts; make test
// fails when that file is stale). Feature code names a resource as Schema<'User'> rather than
// writing its shape again.
import type { components, paths } from './apiSchema.gen';

export type { components, paths } from './apiSchema.gen';

/** A named schema of the contract (components.schemas). */
export type Schema<K extends keyof components['schemas']> = components['schemas'][K];

type Operation<P extends keyof paths, M extends keyof paths[P]> = NonNullable<paths[P][M]>;
type Success<R> = R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : never;
type JsonContent<A> = A extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of a route's successful answer: ResponseOf<'/api/auth/2fa', 'get'>. */
export type ResponseOf<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: infer R } ? JsonContent<Success<R>> : never;

/** The JSON body a route takes: RequestOf<'/api/auth/register', 'post'>. */
export type RequestOf<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;
