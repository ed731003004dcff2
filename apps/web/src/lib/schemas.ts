import { preloadable } from './preloadable';
import type * as ResponseSchemas from './response-schemas';

export type ResponseSchemaName = keyof typeof ResponseSchemas;

const loadSchemas = preloadable(() => import('./response-schemas'));

/**
 * A schema of ./response-schemas.ts, loaded when a call needs it (apiRequest fetches it alongside the request):
 * for the API modules of pages that must draw before zod and @ferry/core's schemas are there.
 */
export function lazySchema<K extends ResponseSchemaName>(
  name: K,
): () => Promise<(typeof ResponseSchemas)[K]> {
  return () => loadSchemas().then((schemas) => schemas[name]);
}
