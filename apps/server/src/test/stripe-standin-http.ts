import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The HTTP side of the Stripe stand-in: Stripe's form encoding (`a[b][0][c]=x`), its error shape, CORS for the
 * Stripe.js stand-in, and webhook signatures exactly as Stripe makes them.
 */

// biome-ignore lint/suspicious/noExplicitAny: the stand-in's objects are Stripe's JSON, loosely typed on purpose.
export type Json = any;

/** Parses Stripe's form encoding (as the SDK and Stripe.js send it) into nested objects and arrays. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split('[').map((part, i) => (i === 0 ? part : part.replace(/\]$/, '')));
    let node = root;
    parts.forEach((part, i) => {
      const key = part === '' ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) node[key] = value;
      else {
        if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
        node = node[key];
      }
    });
  }
  return arrayify(root);
}

function arrayify(value: Json): Json {
  if (!value || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const out: Json = {};
  for (const key of keys) out[key] = arrayify(value[key]);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => out[k]);
  return out;
}

export class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(body?.error?.message ?? `HTTP ${status}`);
  }
}

export const invalidRequest = (message: string, code?: string, param?: string) =>
  new StripeHttpError(400, { error: { type: 'invalid_request_error', message, code, param } });

export const missing = (id: string) =>
  new StripeHttpError(404, {
    error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${id}'` },
  });

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function cors(response: ServerResponse): void {
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Stripe-Version');
  response.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Request-Id', `req_${Math.random().toString(36).slice(2, 14)}`);
  response.end(JSON.stringify(body));
}

/** Stripe's Stripe-Signature header: `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export function stripeSignature(secret: string, payload: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** Luhn's check, as card forms make it. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
