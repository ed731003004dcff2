import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FerryProcess, Fleet } from '../support/ferry.js';
import { api, raw, signedInAccount, tally } from '../support/http.js';
import { type FreshDatabase, freshDatabase } from '../support/infra.js';
import { waitForOutbox } from '../support/mail.js';

/** Sign-ins racing a revocation: "sign out everywhere" must leave nothing behind that an earlier id token made. */
describe('id tokens racing "sign out everywhere"', () => {
  const fleet = new Fleet();
  let db: FreshDatabase;
  let ferry: FerryProcess;

  beforeAll(async () => {
    db = await freshDatabase();
    ferry = await fleet.start({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await fleet.stopAll();
    await db?.drop();
  });

  it('40 session-cookie calls with one id token around a sign-out everywhere: each refused or its session ended', async () => {
    const password = 'correct horse battery';
    const account = await signedInAccount(ferry.url, 'racer@accounts.example', async (to) => {
      const mail = await waitForOutbox(ferry.dataDir, (m) => m.to.includes(to));
      return { parsed: { text: mail.text } };
    });
    // The id token of a session someone else holds, minted before the owner signs out everywhere.
    const minted = await api(ferry.url, '/api/auth/auth/id-token', { headers: account.bearer });
    expect(minted.status).toBe(200);
    const exchange = () =>
      raw(ferry.url, '/api/auth/auth/session-cookie', { headers: { 'id-token': minted.body.idToken } });
    const signOut = () =>
      raw(ferry.url, '/api/auth/auth/sign-out?revokeAllSessions=true', { headers: account.bearer });
    const calls = [
      ...Array.from({ length: 20 }, exchange),
      signOut(),
      ...Array.from({ length: 20 }, exchange),
    ];
    const answers = await Promise.all(calls);
    const out = answers[20]!;
    expect(out.status).toBe(200);
    const exchanges = answers.filter((_, i) => i !== 20);
    expect(Object.keys(tally(exchanges.map((a) => a.status))).every((s) => s === '200' || s === '400')).toBe(
      true,
    );
    for (const refused of exchanges.filter((a) => a.status === 400))
      expect(refused.json).toMatchObject({
        codes: ['VALIDATION_FAILED'],
        details: { reason: 'INVALID_TOKEN' },
      });

    // Whatever won the race, no session made with the old id token is still live, and it makes none now.
    const [live] = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM sessions
        WHERE user_id = (SELECT id FROM users WHERE email = 'racer@accounts.example') AND revoked_at IS NULL`,
    );
    expect(Number(live!.n)).toBe(0);
    expect((await exchange()).status).toBe(400);
    // The owner signs in again as usual.
    const signin = await api(ferry.url, '/api/auth/signin', {
      method: 'POST',
      json: { email: 'racer@accounts.example', password },
    });
    expect(signin.status).toBe(200);
    expect(
      (
        await api(ferry.url, '/api/auth/auth/session-cookie', {
          headers: { 'id-token': signin.body.idToken },
        })
      ).status,
    ).toBe(200);
  });
});
