/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The product name shown to people (DESIGN.md: PRODUCT_NAME, default Ferry). */
  readonly VITE_PRODUCT_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
