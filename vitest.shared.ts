import { fileURLToPath } from 'node:url';

/** Tests import @ferry/core from source so no build is needed before `npm test`. */
export const sourceAliases = {
  '@ferry/core': fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)),
};
