// The API's types, generated from api/openapi.yaml (npm run gen:api → apiSchema.gen.ts; make test
// fails when that file is stale). Feature code names a resource as Schema<'User'> rather than
// writing its shape again.
import type { components } from './apiSchema.gen';

export type { components, paths } from './apiSchema.gen';

/** A named schema of the contract (components.schemas). */
export type Schema<K extends keyof components['schemas']> = components['schemas'][K];
