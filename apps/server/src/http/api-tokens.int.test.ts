import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/** Personal API tokens: scopes enforced per route, the daily quota, the security events (real server and DB). */
let sink: SmtpSink;
let ferry: TestFerry;
const QUOTA = 6;

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      API_TOKEN_DAILY_QUOTA: String(QUOTA),
    },
  });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

let n = 0;
const signedIn = async (label: string) => {
  const email = `${label}-${process.pid}-${++n}@people.example`;
  return signedInAccount(ferry.baseUrl, email, (to) => sink.waitFor((m) => m.to.includes(to)));
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const newToken = async (session: { authorization: string }, name: string, scopes?: string[]) =>
  api(ferry.baseUrl, '/api/auth/tokens', {
    method: 'POST',
    headers: session,
    json: scopes ? { name, scopes } : { name },
  });

describe('API token scopes', () => {
  it('a token of each scope reaches the routes of its scope only; a session reaches them all', async () => {
    const owner = await signedIn('scopes');
    const tokens: Record<string, string> = {};
    for (const scope of ['transfers:read', 'transfers:write', 'receive', 'admin']) {
      const created = await newToken(owner.bearer, `only ${scope}`, [scope]);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.scopes).toEqual([scope]);
      tokens[scope] = created.body.token;
    }
    // One route of each scope; a call answered other than 403 means the scope let it through.
    const routes = [
      ['transfers:read', 'GET', '/api/transfer/transfers', undefined],
      ['transfers:write', 'POST', '/api/user/contacts', { email: `c-${process.pid}@people.example` }],
      ['receive', 'GET', '/api/receive/inboxes', undefined],
      ['admin', 'GET', '/api/pay/invoices', undefined],
    ] as const;
    const matrix: string[] = [];
    for (const [tokenScope, token] of Object.entries(tokens))
      for (const [routeScope, method, path, json] of routes) {
        const res = await api(ferry.baseUrl, path, {
          method,
          headers: bearer(token),
          ...(json ? { json } : {}),
        });
        const refused = res.status === 403 && res.body?.details?.reason === 'API_TOKEN_SCOPE';
        matrix.push(`${tokenScope} ${method} ${path} ${refused ? 'refused' : 'allowed'}`);
        if (refused) expect(res.body.details.scope).toBe(routeScope);
      }
    expect(matrix).toEqual(
      Object.keys(tokens).flatMap((tokenScope) =>
        routes.map(
          ([routeScope, method, path]) =>
            `${tokenScope} ${method} ${path} ${tokenScope === routeScope ? 'allowed' : 'refused'}`,
        ),
      ),
    );
    for (const [, method, path] of routes.slice(0, 1).concat(routes.slice(2)))
      expect((await api(ferry.baseUrl, path, { method, headers: owner.bearer })).status).not.toBe(403);
    // Any token: its own account; public calls are not refused for a narrow token.
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(tokens.receive!) })).status).toBe(200);
    expect((await api(ferry.baseUrl, '/api/pay/plans', { headers: bearer(tokens.receive!) })).status).toBe(
      200,
    );
  });

  it('a token made without a choice, or before scopes existed, has every scope but admin', async () => {
    const owner = await signedIn('defaults');
    const created = await newToken(owner.bearer, 'plain');
    expect(created.body.scopes).toEqual(['transfers:read', 'transfers:write', 'receive']);
    const [column] = await query<{ column_default: string }>(
      ferry,
      `SELECT column_default FROM information_schema.columns WHERE table_name = 'api_tokens' AND column_name = 'scopes'`,
    );
    expect(column!.column_default).toContain("'transfers:read'");
    expect(column!.column_default).not.toContain('admin');
    expect((await newToken(owner.bearer, 'none', [])).status).toBe(400);
    expect((await newToken(owner.bearer, 'bad', ['everything'])).status).toBe(400);
  });

  it('no token creates tokens, whatever its scopes', async () => {
    const owner = await signedIn('nomint');
    const admin = await newToken(owner.bearer, 'admin', ['admin', 'transfers:read']);
    expect(admin.body.scopes).toEqual(['transfers:read', 'admin']);
    const minted = await newToken(bearer(admin.body.token), 'minted');
    expect(minted.status).toBe(403);
    expect(minted.body.details.reason).toBe('API_TOKEN_NOT_ALLOWED');
  });
});

describe('API token daily quota and security events', () => {
  it('past the quota a token is answered 429 with Retry-After up to midnight UTC; other tokens go on', async () => {
    const owner = await signedIn('quota');
    const token = (await newToken(owner.bearer, 'busy')).body.token as string;
    const other = (await newToken(owner.bearer, 'quiet')).body.token as string;
    for (let i = 0; i < QUOTA; i++)
      expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(token) })).status).toBe(200);
    const over = await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(token) });
    expect(over.status).toBe(429);
    expect(over.body.details.reason).toBe('API_TOKEN_DAILY_QUOTA');
    const now = new Date();
    const toMidnight =
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(toMidnight) + 1);
    expect(Math.abs(retryAfter - toMidnight)).toBeLessThan(120);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(other) })).status).toBe(200);
    // The session of the same account is not counted.
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: owner.bearer })).status).toBe(200);
  });

  it('logs api-key-created, api-key-used once a day and api-key-revoked, with the scopes and last use', async () => {
    const owner = await signedIn('events');
    const created = await newToken(owner.bearer, 'deploy bot', ['transfers:read']);
    for (let i = 0; i < 3; i++)
      expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(created.body.token) })).status).toBe(
        200,
      );
    const listed = await api(ferry.baseUrl, '/api/auth/tokens', { headers: owner.bearer });
    expect(listed.body[0]).toMatchObject({ name: 'deploy bot', scopes: ['transfers:read'] });
    expect(listed.body[0].lastUsedAt).not.toBeNull();
    expect(
      (
        await api(ferry.baseUrl, `/api/auth/tokens/${created.body.id}`, {
          method: 'DELETE',
          headers: owner.bearer,
        })
      ).status,
    ).toBe(204);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer(created.body.token) })).status).toBe(
      401,
    );
    const rows = await query<{
      action: string;
      actor_label: string;
      target: string;
      token_id: string | null;
    }>(
      ferry,
      // The keys' own entries (the owner's sign-in is logged too).
      `SELECT action, actor_label, target, token_id FROM security_log
        WHERE team_id = $1 AND action LIKE 'api-key-%' ORDER BY id`,
      [owner.uid],
    );
    expect(rows.map((r) => r.action)).toEqual(['api-key-created', 'api-key-used', 'api-key-revoked']);
    expect(rows[1]).toMatchObject({ actor_label: 'deploy bot', token_id: created.body.id });
    expect(rows[2]!.target).toBe('deploy bot');
  });
});
