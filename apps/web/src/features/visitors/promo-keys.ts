/** Where the promo panel's dismissal is kept for the browser session. */
export const PROMO_DISMISSED_KEY = 'ferry.promoPanel.dismissed';
