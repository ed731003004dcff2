/** Build-time settings of the web app (Vite env); the product name shown to people (DESIGN.md). */
export const PRODUCT_NAME: string = import.meta.env.VITE_PRODUCT_NAME || 'Ferry';
