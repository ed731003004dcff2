/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The product name shown to people (DESIGN.md: PRODUCT_NAME, default Ferry). */
  readonly VITE_PRODUCT_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** Each language's texts by namespace (build/locale-texts.ts). */
declare module 'virtual:locale-texts' {
  /** The languages there is a file for. */
  export const LOCALE_CODES: readonly string[];
  /** One namespace of one language: a chunk of its own. */
  export function loadLocaleTexts(
    language: string,
    ns: string,
  ): Promise<{ default: Record<string, unknown> }>;
}
