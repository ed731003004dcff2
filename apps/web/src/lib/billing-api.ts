import {
  BillingCustomer,
  type ChangeSubscriptionRequest,
  ChangeSubscriptionResponse,
  CountryResponse,
  CurrentSubscription,
  InvoiceList,
  PaymentInfos,
  PlanCatalogue,
  PurchaseState,
  type StartPurchaseRequest,
  StartPurchaseResponse,
  type StartSubscriptionRequest,
  StartSubscriptionResponse,
  TaxRate,
} from '@ferry/core';
import { apiRequest } from './api';

/*
 * The plans and billing calls (packages/core/src/api/billing.ts, spec §7 /pay/*), answers validated with
 * @ferry/core's zod schemas. Money is in minor units (cents).
 */

/** GET /pay/plans: what this instance sells (public). */
export function getPlanCatalogue(signal?: AbortSignal): Promise<PlanCatalogue> {
  return apiRequest('/pay/plans', { schema: PlanCatalogue, signal });
}

/** GET /user/locations/country (spec §7): the visitor's country, US when the lookup fails (spec §7). */
export async function getVisitorCountry(signal?: AbortSignal): Promise<string> {
  try {
    return (await apiRequest('/user/locations/country', { schema: CountryResponse, signal })).country;
  } catch (error) {
    console.warn('country lookup failed, using US', error);
    return 'US';
  }
}

/** GET /pay/subscriptions/tax-rates?countryCode&vatNumber (spec §5, §7). */
export function getTaxRate(countryCode: string, vatNumber?: string, signal?: AbortSignal): Promise<TaxRate> {
  return apiRequest('/pay/subscriptions/tax-rates', {
    query: { countryCode, vatNumber },
    schema: TaxRate,
    signal,
  });
}

/** POST /pay/subscriptions → 201: the subscription, its first invoice (MANUAL) or the secret to confirm. */
export function startSubscription(request: StartSubscriptionRequest): Promise<StartSubscriptionResponse> {
  return apiRequest('/pay/subscriptions', {
    method: 'POST',
    body: request,
    schema: StartSubscriptionResponse,
  });
}

/** GET /pay/subscriptions/current: the paying account's subscription, or null. */
export function getCurrentSubscription(signal?: AbortSignal): Promise<CurrentSubscription> {
  return apiRequest('/pay/subscriptions/current', { schema: CurrentSubscription, signal });
}

/** PATCH /pay/subscriptions/{id}: plan, frequency or payment method (an upgrade may invoice now). */
export function changeSubscription(
  id: string,
  change: ChangeSubscriptionRequest,
): Promise<ChangeSubscriptionResponse> {
  return apiRequest(`/pay/subscriptions/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: change,
    schema: ChangeSubscriptionResponse,
  });
}

/** POST /pay/subscriptions/{id}/cancel: ends at the period's end. */
export function cancelSubscription(id: string): Promise<CurrentSubscription> {
  return apiRequest(`/pay/subscriptions/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
    schema: CurrentSubscription,
  });
}

/** POST /pay/subscriptions/{id}/resume: undoes a cancellation before the period ends. */
export function resumeSubscription(id: string): Promise<CurrentSubscription> {
  return apiRequest(`/pay/subscriptions/${encodeURIComponent(id)}/resume`, {
    method: 'POST',
    schema: CurrentSubscription,
  });
}

/** GET /pay/customers/{managerId} (spec §7): the billing customer. */
export function getBillingCustomer(managerId: string, signal?: AbortSignal): Promise<BillingCustomer> {
  return apiRequest(`/pay/customers/${encodeURIComponent(managerId)}`, { schema: BillingCustomer, signal });
}

/** GET /pay/customers/{managerId}/payment-infos (spec §7): what spec §4's billing state is made of. */
export function getPaymentInfos(managerId: string, signal?: AbortSignal): Promise<PaymentInfos> {
  return apiRequest(`/pay/customers/${encodeURIComponent(managerId)}/payment-infos`, {
    schema: PaymentInfos,
    signal,
  });
}

/** GET /pay/invoices: the paying account's invoices, newest first. */
export function listInvoices(signal?: AbortSignal): Promise<InvoiceList> {
  return apiRequest('/pay/invoices', { schema: InvoiceList, signal });
}

/** POST /pay/purchases → 201: the price with the buyer's VAT, and the card payment to confirm (selling files). */
export function startPurchase(request: StartPurchaseRequest): Promise<StartPurchaseResponse> {
  return apiRequest('/pay/purchases', { method: 'POST', body: request, schema: StartPurchaseResponse });
}

/** GET /pay/purchases/{id}: where a purchase stands; once paid, the token that unlocks the transfer. */
export function getPurchase(purchaseId: string, signal?: AbortSignal): Promise<PurchaseState> {
  return apiRequest(`/pay/purchases/${encodeURIComponent(purchaseId)}`, { schema: PurchaseState, signal });
}
