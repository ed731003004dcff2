/** Held while the promo panel's code or the plan catalogue is on its way: empty, and busy for assistive technology. */
export function PromoLoading() {
  return <div className="promo-loading" aria-busy="true" data-testid="promo-loading" />;
}
