import {
  DEFAULT_TRANSFER_VALIDITY_MAX_DAYS,
  RECEIVE_DEFAULT_DAYS_FREE,
  RECEIVE_DEFAULT_DAYS_PAYING,
} from '../constants.js';

const DAY_MS = 86_400_000;

export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** Days a new transfer lasts when the sender does not choose: min(validity limit, 21) (spec §5). */
export function defaultTransferValidityDays(validityLimitDays: number): number {
  return Math.min(validityLimitDays, DEFAULT_TRANSFER_VALIDITY_MAX_DAYS);
}

/** Default expiry of a transfer: today plus the smaller of the validity limit and 21 days (spec §5). */
export function defaultTransferExpiry(now: Date, validityLimitDays: number): Date {
  return addDays(now, defaultTransferValidityDays(validityLimitDays));
}

/** Default expiry of a receive request: 21 days for paying users, 7 for others (spec §5, §9). */
export function defaultReceiveExpiry(now: Date, payingUser: boolean): Date {
  return addDays(now, payingUser ? RECEIVE_DEFAULT_DAYS_PAYING : RECEIVE_DEFAULT_DAYS_FREE);
}

/** A template's default availability never exceeds the user's validity limit (spec §5). */
export function capTemplateAvailability(defaultAvailabilityDays: number, validityLimitDays: number): number {
  return Math.min(defaultAvailabilityDays, validityLimitDays);
}
