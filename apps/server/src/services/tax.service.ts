import type { TaxRate } from '@ferry/core';
import type { Logger } from 'pino';
import { COUNTRY_CODES, EU_VAT } from '../payments/eu-vat.js';
import { AppError } from './app-error.js';
import type { TaxDecision, Taxes } from './billing-ports.js';
import type { RateLimiter } from './ports.js';

/** Per client address: the public tax-rates call may reach VIES, so it is limited like other public lookups. */
export const TAX_RATE_LOOKUPS = { limit: 60, windowSeconds: 60 } as const;

export interface TaxSettings {
  /** The seller's country (SELLER_COUNTRY): its businesses pay its VAT, no reverse charge. */
  sellerCountry: string;
  /** VIES_CHECK and VIES_URL: check numbers online too. */
  vies: { enabled: boolean; url: string };
  /** How long VIES may take before it counts as down. */
  viesTimeoutMs?: number;
}

/** A VAT number as typed, split into its country's prefix and national part; null when it is not of that country. */
export interface ParsedVatNumber {
  /** Prefix + national part, e.g. DE123456789, EL123456789. */
  normalized: string;
  national: string;
  formatValid: boolean;
}

/** Drops spaces, dots, dashes and slashes; upper case. */
export function cleanVatNumber(input: string): string {
  return input.replace(/[\s.\-/]/g, '').toUpperCase();
}

/**
 * Checks a number against its member state's VIES format. The prefix is optional (DE123456789 or 123456789);
 * Greece's is EL (GR is taken as well). A number of another member state's prefix is not this country's.
 */
export function parseVatNumber(countryCode: string, input: string): ParsedVatNumber | null {
  const state = EU_VAT[countryCode];
  if (!state) return null;
  const clean = cleanVatNumber(input);
  const prefixes = countryCode === 'GR' ? ['EL', 'GR'] : [state.prefix];
  for (const prefix of prefixes)
    if (clean.startsWith(prefix) && state.pattern.test(clean.slice(prefix.length))) {
      const national = clean.slice(prefix.length);
      return { normalized: `${state.prefix}${national}`, national, formatValid: true };
    }
  if (state.pattern.test(clean))
    return { normalized: `${state.prefix}${clean}`, national: clean, formatValid: true };
  return { normalized: clean, national: clean, formatValid: false };
}

/** Rounds half up (away from zero) the VAT of an amount in minor units; `rate` in percent (25.5 allowed). */
export function taxOf(amount: number, rate: number): number {
  const hundredths = Math.round(rate * 100);
  const sign = amount < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(amount) * hundredths + 5000) / 10000);
}

/** What VIES said: valid or not, or that it could not tell (down, a member state's service unavailable). */
export type ViesAnswer = { valid: boolean } | { unavailable: string };

/**
 * EU VAT by the buyer's country (spec §7 tax-rates):
 * - outside the EU: no VAT;
 * - a business with a valid number in another member state than the seller's: reverse charge, rate 0;
 * - a business of the seller's own country: the seller's VAT;
 * - a consumer (or a number that is not valid): the VAT of the buyer's country (OSS).
 * Numbers are checked by format; when VIES_CHECK is on, online against VIES too. When VIES cannot answer, the
 * format check decides and the decision says VIES was unavailable (`vatCheck` stays 'format').
 */
export class TaxService implements Taxes {
  constructor(
    private readonly settings: TaxSettings,
    private readonly logger?: Pick<Logger, 'warn'>,
    private readonly limiter?: RateLimiter,
  ) {}

  /** GET /api/pay/subscriptions/tax-rates (public): the spec's TaxRate, limited per client address. */
  async lookup(countryCode: string, vatNumber: string | undefined, ip: string): Promise<TaxRate> {
    if (this.limiter) {
      const hit = await this.limiter.hit(
        `tax-rates:${ip}`,
        TAX_RATE_LOOKUPS.limit,
        TAX_RATE_LOOKUPS.windowSeconds,
      );
      if (!hit.allowed)
        throw new AppError('RATE_LIMITED', 'Too many requests; wait before trying again.', {
          retryAfterSeconds: hit.retryAfterSeconds,
        });
    }
    const decision = await this.decide(countryCode, vatNumber || null);
    return {
      countryCode: decision.countryCode,
      rate: decision.rate,
      reverseCharge: decision.reverseCharge,
      vatNumberValid: decision.vatNumberValid,
    };
  }

  /** Whether a code is a country (ISO 3166-1); the tax-rates call refuses others. */
  static isCountry(code: string): boolean {
    return COUNTRY_CODES.has(code.toUpperCase());
  }

  async decide(
    countryCode: string,
    vatNumber?: string | null,
    options: { strict?: boolean } = {},
  ): Promise<TaxDecision> {
    const country = countryCode.trim().toUpperCase();
    if (!TaxService.isCountry(country))
      throw new AppError('VALIDATION_FAILED', 'The request is not valid.', {
        details: { issues: [{ path: '/countryCode', message: 'not a country code (ISO 3166-1)' }] },
      });
    const given = vatNumber ? cleanVatNumber(vatNumber) : '';
    const state = EU_VAT[country];
    if (!state)
      // Outside the EU: no VAT, and no EU register to check a number against.
      return {
        countryCode: country,
        rate: 0,
        reverseCharge: false,
        vatNumber: given || null,
        vatNumberValid: null,
        vatCheck: 'none',
      };
    const consumer = (valid: boolean | null, vatCheck: TaxDecision['vatCheck'], number: string | null) => ({
      countryCode: country,
      rate: state.rate,
      reverseCharge: false,
      vatNumber: number,
      vatNumberValid: valid,
      vatCheck,
    });
    if (!given) return consumer(null, 'none', null);

    const parsed = parseVatNumber(country, given) as ParsedVatNumber;
    let valid = parsed.formatValid;
    let vatCheck: TaxDecision['vatCheck'] = 'format';
    let viesUnavailable: string | undefined;
    if (valid && this.settings.vies.enabled) {
      const answer = await this.askVies(state.prefix, parsed.national);
      if ('valid' in answer) {
        valid = answer.valid;
        vatCheck = 'vies';
      } else {
        viesUnavailable = answer.unavailable;
        this.logger?.warn(
          { country, reason: answer.unavailable },
          'VIES could not check a VAT number; its format decides',
        );
      }
    }
    if (!valid && options.strict)
      throw new AppError('INVALID_VAT_NUMBER', 'This VAT number is not valid for the country given.', {
        details: { countryCode: country, vatCheck },
      });
    const decision: TaxDecision = valid
      ? {
          countryCode: country,
          rate: country === this.settings.sellerCountry ? state.rate : 0,
          reverseCharge: country !== this.settings.sellerCountry,
          vatNumber: parsed.normalized,
          vatNumberValid: true,
          vatCheck,
        }
      : consumer(false, vatCheck, parsed.normalized);
    if (viesUnavailable) decision.viesUnavailable = viesUnavailable;
    return decision;
  }

  /** POST to the EU's VIES REST API ({ countryCode, vatNumber } → { valid, … }). */
  async askVies(prefix: string, national: string): Promise<ViesAnswer> {
    try {
      const response = await fetch(this.settings.vies.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode: prefix, vatNumber: national }),
        signal: AbortSignal.timeout(this.settings.viesTimeoutMs ?? 5000),
      });
      if (!response.ok) return { unavailable: `HTTP ${response.status}` };
      const body = (await response.json()) as {
        valid?: unknown;
        /** The GET endpoint's name of `valid`. */
        isValid?: unknown;
        actionSucceed?: boolean;
        errorWrappers?: { error?: string }[];
        userError?: string;
      };
      if (body.actionSucceed === false || body.errorWrappers?.length)
        return { unavailable: body.errorWrappers?.[0]?.error ?? 'error' };
      // A register that could not be asked (MS_UNAVAILABLE, MS_MAX_CONCURRENT_REQ, TIMEOUT…) says valid: false.
      if (body.userError && body.userError !== 'VALID' && body.userError !== 'INVALID')
        return { unavailable: body.userError };
      const valid = typeof body.valid === 'boolean' ? body.valid : body.isValid;
      if (typeof valid !== 'boolean') return { unavailable: 'unexpected answer' };
      return { valid };
    } catch (error) {
      return { unavailable: error instanceof Error ? error.name : 'unreachable' };
    }
  }
}
