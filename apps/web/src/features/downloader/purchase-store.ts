import { readJson, removeKey, writeJson } from '../../lib/storage';

/*
 * What this browser keeps of a purchase of a priced transfer: the token that unlocks it once paid, and the id of
 * a payment still under way (so a page reloaded, or back from the provider, picks it up again).
 */

const key = (transferId: string) => `ferry.purchase.${transferId}`;

interface Kept {
  token?: string;
  pendingPurchaseId?: string;
}

function kept(transferId: string): Kept {
  const value = readJson(key(transferId));
  return value && typeof value === 'object' ? (value as Kept) : {};
}

export function purchaseTokenOf(transferId: string): string | undefined {
  const token = kept(transferId).token;
  return typeof token === 'string' ? token : undefined;
}

export function pendingPurchaseOf(transferId: string): string | undefined {
  const id = kept(transferId).pendingPurchaseId;
  return typeof id === 'string' ? id : undefined;
}

export function keepPendingPurchase(transferId: string, purchaseId: string): void {
  writeJson(key(transferId), { ...kept(transferId), pendingPurchaseId: purchaseId });
}

export function keepPurchaseToken(transferId: string, token: string): void {
  writeJson(key(transferId), { token });
}

/** A token the server no longer takes (the purchase refunded, another transfer's) is forgotten. */
export function forgetPurchase(transferId: string): void {
  removeKey(key(transferId));
}
