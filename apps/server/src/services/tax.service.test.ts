import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EU_VAT } from '../payments/eu-vat.js';
import { AppError } from './app-error.js';
import { parseVatNumber, TaxService, taxOf } from './tax.service.js';

const offline = new TaxService({ sellerCountry: 'FR', vies: { enabled: false, url: 'http://127.0.0.1:9/' } });

describe('EU VAT by the buyer', () => {
  it('has the 27 member states', () => {
    expect(Object.keys(EU_VAT)).toHaveLength(27);
    expect(EU_VAT.GR?.prefix).toBe('EL');
  });

  it('charges a consumer the VAT of their country (FR, DE, IE)', async () => {
    for (const [country, rate] of [
      ['FR', 20],
      ['DE', 19],
      ['IE', 23],
    ] as const)
      expect(await offline.decide(country)).toEqual({
        countryCode: country,
        rate,
        reverseCharge: false,
        vatNumber: null,
        vatNumberValid: null,
        vatCheck: 'none',
      });
    expect((await offline.decide('fi')).rate).toBe(25.5);
  });

  it('reverse charges a business with a valid number in another member state', async () => {
    expect(await offline.decide('DE', 'de 123.456.789')).toEqual({
      countryCode: 'DE',
      rate: 0,
      reverseCharge: true,
      vatNumber: 'DE123456789',
      vatNumberValid: true,
      vatCheck: 'format',
    });
    // Without its prefix too; Greece's prefix is EL.
    expect(await offline.decide('DE', '123456789')).toMatchObject({
      reverseCharge: true,
      vatNumberValid: true,
    });
    expect(await offline.decide('GR', 'EL 123456789')).toMatchObject({
      reverseCharge: true,
      vatNumber: 'EL123456789',
    });
    expect(await offline.decide('NL', 'NL123456789B01')).toMatchObject({ reverseCharge: true, rate: 0 });
    expect(await offline.decide('AT', 'ATU12345678')).toMatchObject({ reverseCharge: true });
  });

  it("charges a business of the seller's own country the seller's VAT", async () => {
    expect(await offline.decide('FR', 'FR 40 303 265 045')).toEqual({
      countryCode: 'FR',
      rate: 20,
      reverseCharge: false,
      vatNumber: 'FR40303265045',
      vatNumberValid: true,
      vatCheck: 'format',
    });
  });

  it('charges no VAT outside the EU', async () => {
    expect(await offline.decide('US')).toEqual({
      countryCode: 'US',
      rate: 0,
      reverseCharge: false,
      vatNumber: null,
      vatNumberValid: null,
      vatCheck: 'none',
    });
    expect(await offline.decide('GB', 'GB123456789')).toMatchObject({ rate: 0, vatNumberValid: null });
  });

  it('treats a number of the wrong format as no number: the consumer rate, vatNumberValid false', async () => {
    expect(await offline.decide('DE', 'DE12345')).toEqual({
      countryCode: 'DE',
      rate: 19,
      reverseCharge: false,
      vatNumber: 'DE12345',
      vatNumberValid: false,
      vatCheck: 'format',
    });
    // Another member state's number is not a German one.
    expect((await offline.decide('DE', 'FR40303265045')).vatNumberValid).toBe(false);
    expect(parseVatNumber('BE', 'BE2123456789')?.formatValid).toBe(false);
    expect(parseVatNumber('BE', '0123456789')?.formatValid).toBe(true);
    expect(parseVatNumber('IE', 'IE1234567WA')?.formatValid).toBe(true);
    expect(parseVatNumber('ES', 'ESX1234567X')?.formatValid).toBe(true);
  });

  it('refuses a bad number in strict mode, and an unknown country always', async () => {
    await expect(offline.decide('DE', '12', { strict: true })).rejects.toMatchObject({
      code: 'INVALID_VAT_NUMBER',
    });
    await expect(offline.decide('ZZ')).rejects.toBeInstanceOf(AppError);
    await expect(offline.decide('ZZ')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('rounds VAT half up in minor units', () => {
    expect(taxOf(1250, 20)).toBe(250);
    expect(taxOf(1, 50)).toBe(1); // 0.5 → 1
    expect(taxOf(2, 25.5)).toBe(1); // 0.51 → 1
    expect(taxOf(999, 19)).toBe(190); // 189.81 → 190
    expect(taxOf(1002, 0.05)).toBe(1); // 0.501 → 1
    expect(taxOf(1000, 0)).toBe(0);
    expect(taxOf(-1250, 20)).toBe(-250);
  });
});

describe('VIES, when VIES_CHECK is on', () => {
  let server: Server;
  let url: string;
  const seen: unknown[] = [];
  // 123456789 is registered; 111111111 is not; 999999999 makes the member state's service unavailable.
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const asked = JSON.parse(body) as { countryCode: string; vatNumber: string };
        seen.push({ path: req.url, method: req.method, ...asked });
        res.setHeader('content-type', 'application/json');
        if (asked.vatNumber === '888888888') {
          res.end(JSON.stringify({ valid: false, userError: 'MS_MAX_CONCURRENT_REQ' }));
          return;
        }
        if (asked.vatNumber === '999999999') {
          res.end(JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] }));
          return;
        }
        res.end(
          JSON.stringify({
            countryCode: asked.countryCode,
            vatNumber: asked.vatNumber,
            requestDate: new Date().toISOString(),
            valid: asked.vatNumber === '123456789',
            userError: asked.vatNumber === '123456789' ? 'VALID' : 'INVALID',
            name: '---',
            address: '---',
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check-vat-number`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const online = () => new TaxService({ sellerCountry: 'FR', vies: { enabled: true, url } });

  it('reverse charges a number VIES knows, and says it was checked there', async () => {
    expect(await online().decide('DE', 'DE123456789')).toEqual({
      countryCode: 'DE',
      rate: 0,
      reverseCharge: true,
      vatNumber: 'DE123456789',
      vatNumberValid: true,
      vatCheck: 'vies',
    });
    expect(seen).toContainEqual({
      path: '/check-vat-number',
      method: 'POST',
      countryCode: 'DE',
      vatNumber: '123456789',
    });
  });

  it('charges the consumer rate for a well-formed number VIES does not know', async () => {
    expect(await online().decide('DE', '111111111')).toMatchObject({
      rate: 19,
      reverseCharge: false,
      vatNumberValid: false,
      vatCheck: 'vies',
    });
    await expect(online().decide('DE', '111111111', { strict: true })).rejects.toMatchObject({
      code: 'INVALID_VAT_NUMBER',
    });
  });

  it('falls back to the format when VIES cannot answer, and says so', async () => {
    const warnings: unknown[] = [];
    const taxes = new TaxService({ sellerCountry: 'FR', vies: { enabled: true, url } }, {
      warn: (obj: unknown) => void warnings.push(obj),
    } as never);
    expect(await taxes.decide('DE', '999999999')).toEqual({
      countryCode: 'DE',
      rate: 0,
      reverseCharge: true,
      vatNumber: 'DE999999999',
      vatNumberValid: true,
      vatCheck: 'format',
      viesUnavailable: 'MS_UNAVAILABLE',
    });
    expect(warnings).toHaveLength(1);
    // A register too busy to answer says valid: false with a userError: not an answer either.
    expect(await taxes.decide('DE', '888888888')).toMatchObject({
      reverseCharge: true,
      vatNumberValid: true,
      viesUnavailable: 'MS_MAX_CONCURRENT_REQ',
    });
    // Nothing listening at all.
    const down = new TaxService({
      sellerCountry: 'FR',
      vies: { enabled: true, url: 'http://127.0.0.1:9/check-vat-number' },
      viesTimeoutMs: 2000,
    });
    expect(await down.decide('DE', '123456789')).toMatchObject({
      reverseCharge: true,
      vatCheck: 'format',
      viesUnavailable: expect.any(String),
    });
  });

  it('never asks VIES about a number of the wrong format', async () => {
    const before = seen.length;
    expect((await online().decide('DE', '12')).vatNumberValid).toBe(false);
    expect(seen).toHaveLength(before);
  });
});
