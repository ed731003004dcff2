import { z } from 'zod';

/**
 * What a personal API token (`fry_…`) may do. A token holds a chosen subset; a route needs at most one scope
 * (docs/api.md, "API token scopes"). No token, whatever its scopes, creates or revokes tokens.
 */
export const API_TOKEN_SCOPES = ['transfers:read', 'transfers:write', 'receive', 'admin'] as const;
export const ApiTokenScope = z.enum(API_TOKEN_SCOPES);
export type ApiTokenScope = z.infer<typeof ApiTokenScope>;

/** The scopes of a token created without a choice, and of the tokens made before scopes existed. */
export const DEFAULT_API_TOKEN_SCOPES: readonly ApiTokenScope[] = [
  'transfers:read',
  'transfers:write',
  'receive',
];

/** Calls a token may make per UTC day unless API_TOKEN_DAILY_QUOTA says otherwise. */
export const DEFAULT_API_TOKEN_DAILY_QUOTA = 100_000;

/** The chosen scopes: at least one, each once. */
export const ApiTokenScopes = z
  .array(ApiTokenScope)
  .min(1)
  .max(API_TOKEN_SCOPES.length)
  .transform((scopes) => API_TOKEN_SCOPES.filter((s) => scopes.includes(s)));
