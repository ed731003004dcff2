import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FerryProcess, Fleet } from '../support/ferry.js';
import { codedErrorProblem, median, randomFile, raw, sendTransfer, sleep } from '../support/http.js';
import { type FreshDatabase, freshDatabase } from '../support/infra.js';

const RIGHT = 'correct horse battery staple';

const checkPassword = (
  baseUrl: string,
  transferId: string,
  password: string,
  headers: Record<string, string> = {},
) =>
  raw(baseUrl, '/api/transfer/downloads/check-password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ transferId, password }),
  });

describe('password guessing', () => {
  const fleet = new Fleet();
  let db: FreshDatabase;
  /** Five guesses per transfer and address per window; behind a (pretend) proxy so addresses can differ. */
  let limited: FerryProcess;
  /** Two guesses per 3 s window: to see a window end. */
  let shortWindow: FerryProcess;
  /** Practically no limit, info logs (each request's server-side responseTime), for the timing measurement. */
  let timed: FerryProcess;

  beforeAll(async () => {
    db = await freshDatabase();
    limited = await fleet.start({
      env: {
        DATABASE_URL: db.url,
        PASSWORD_ATTEMPTS_PER_WINDOW: '5',
        TRUST_PROXY: '1',
      },
    });
    shortWindow = await fleet.start({
      env: { DATABASE_URL: db.url, PASSWORD_ATTEMPTS_PER_WINDOW: '2', PASSWORD_ATTEMPT_WINDOW_SECONDS: '3' },
    });
    timed = await fleet.start({
      env: { DATABASE_URL: db.url, PASSWORD_ATTEMPTS_PER_WINDOW: '1000000', LOG_LEVEL: 'info' },
    });
  });
  afterAll(async () => {
    await fleet.stopAll();
    await db?.drop();
  });

  it('answers 429 after the configured attempts, on every password route', async () => {
    const t = await sendTransfer(limited.url, [{ name: 'a.txt', data: randomFile(10) }], { password: RIGHT });
    const other = await sendTransfer(limited.url, [{ name: 'b.txt', data: randomFile(10) }], {
      password: RIGHT,
    });
    for (let i = 1; i <= 5; i++) {
      const res = await checkPassword(limited.url, t.transferId, `guess-${i}`);
      expect(codedErrorProblem(res, 403, 'WRONG_PASSWORD'), `guess ${i}`).toBeNull();
    }
    const blocked = await checkPassword(limited.url, t.transferId, 'guess-6');
    expect(codedErrorProblem(blocked, 429, 'RATE_LIMITED')).toBeNull();
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 900,
      `Retry-After ${retryAfter}`,
    ).toBe(true);

    // Locked out means locked out: the right password, /info and /link with a password count the same.
    expect(
      codedErrorProblem(await checkPassword(limited.url, t.transferId, RIGHT), 429, 'RATE_LIMITED'),
    ).toBeNull();
    const q = `transferId=${t.transferId}&password=${encodeURIComponent(RIGHT)}`;
    expect(
      codedErrorProblem(await raw(limited.url, `/api/transfer/downloads/info?${q}`), 429, 'RATE_LIMITED'),
    ).toBeNull();
    expect(
      codedErrorProblem(await raw(limited.url, `/api/transfer/downloads/link?${q}`), 429, 'RATE_LIMITED'),
    ).toBeNull();
    // Per transfer: another transfer is not affected.
    expect(
      codedErrorProblem(await checkPassword(limited.url, other.transferId, 'nope'), 403, 'WRONG_PASSWORD'),
    ).toBeNull();
  });

  it('lets guessing start again once the window has passed', async () => {
    const t = await sendTransfer(shortWindow.url, [{ name: 'a.txt', data: randomFile(10) }], {
      password: RIGHT,
    });
    for (const guess of ['one', 'two'])
      expect(
        codedErrorProblem(await checkPassword(shortWindow.url, t.transferId, guess), 403, 'WRONG_PASSWORD'),
      ).toBeNull();
    const blocked = await checkPassword(shortWindow.url, t.transferId, RIGHT);
    expect(codedErrorProblem(blocked, 429, 'RATE_LIMITED')).toBeNull();
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter >= 1 && retryAfter <= 3, `Retry-After ${retryAfter}`).toBe(true);
    await sleep(retryAfter * 1000 + 500);
    const after = await checkPassword(shortWindow.url, t.transferId, RIGHT);
    expect(after.status).toBe(200);
    expect(after.json).toEqual({ ok: true });
  });

  it('caps failures from many addresses together at ten times the per-address attempts', async () => {
    const t = await sendTransfer(limited.url, [{ name: 'a.txt', data: randomFile(10) }], { password: RIGHT });
    const statuses: number[] = [];
    // 11 addresses × 5 guesses = 55 wrong guesses, each address within its own limit.
    for (let a = 0; a < 11; a++)
      for (let g = 0; g < 5; g++)
        statuses.push(
          (
            await checkPassword(limited.url, t.transferId, `w${a}-${g}`, {
              'x-forwarded-for': `198.51.100.${a + 1}`,
            })
          ).status,
        );
    expect(statuses.slice(0, 50).every((s) => s === 403)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429, 429, 429, 429]);
    // Closed until the window ends: from a fresh address, the right password is refused too (else guessing
    // from many addresses would go on, the lockout only changing the error).
    expect(
      codedErrorProblem(
        await checkPassword(limited.url, t.transferId, RIGHT, { 'x-forwarded-for': '203.0.113.9' }),
        429,
        'RATE_LIMITED',
      ),
    ).toBeNull();
  });

  it('takes as long to refuse a wrong password as to accept the right one (both dominated by argon2)', async () => {
    const t1 = await sendTransfer(timed.url, [{ name: 'a.txt', data: randomFile(10) }], { password: RIGHT });
    const right2 = 'Tr0ub4dor&3-and-then-some-more-characters';
    const t2 = await sendTransfer(timed.url, [{ name: 'b.txt', data: randomFile(10) }], { password: right2 });
    const open = await sendTransfer(timed.url, [{ name: 'c.txt', data: randomFile(10) }]);
    const wrongs = (right: string, i: number) =>
      [
        `${right.slice(0, -1)}${right.at(-1) === 'x' ? 'y' : 'x'}`, // one character off
        '',
        'a',
        'x'.repeat(256),
        `${right}${right}`,
        `guess-${i}`,
      ][i % 6]!;

    type Kind = 'wrong' | 'right' | 'none';
    const calls: Array<{ id: string; kind: Kind; clientMs: number }> = [];
    const call = async (kind: Kind, transferId: string, password: string, id: string) => {
      const started = performance.now();
      const res = await checkPassword(timed.url, transferId, password, { 'x-request-id': id });
      const clientMs = performance.now() - started;
      expect(res.status, id).toBe(kind === 'wrong' ? 403 : 200);
      calls.push({ id, kind, clientMs });
    };
    for (let i = 0; i < 8; i++) await call('right', t1.transferId, RIGHT, `warmup-${i}-xxxx`);
    calls.length = 0;
    const ROUNDS = 80;
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate wrong/right on two transfers, and vary which comes first.
      const pair = i % 2 ? ([t2.transferId, right2] as const) : ([t1.transferId, RIGHT] as const);
      const wrong = () => call('wrong', pair[0], wrongs(pair[1], i), `timing-${i}-wrong`);
      const right = () => call('right', pair[0], pair[1], `timing-${i}-right`);
      if (i % 4 < 2) {
        await wrong();
        await right();
      } else {
        await right();
        await wrong();
      }
      if (i % 3 === 0) await call('none', open.transferId, 'whatever', `timing-${i}-none`);
    }

    // Server-side time of each request: Fastify's `responseTime` in the info log, found by our request id.
    await sleep(300);
    const serverMs = new Map<string, number>();
    for (const line of timed.output.split('\n')) {
      if (!line.startsWith('{') || !line.includes('"responseTime"')) continue;
      const entry = JSON.parse(line) as { reqId?: string; responseTime?: number };
      if (entry.reqId && typeof entry.responseTime === 'number')
        serverMs.set(entry.reqId, entry.responseTime);
    }
    const server = (kind: Kind) =>
      calls
        .filter((c) => c.kind === kind)
        .map((c) => {
          const ms = serverMs.get(c.id);
          if (ms === undefined) throw new Error(`no server log line for request ${c.id}`);
          return ms;
        });
    const client = (kind: Kind) => calls.filter((c) => c.kind === kind).map((c) => c.clientMs);
    const wrongMs = median(server('wrong'));
    const rightMs = median(server('right'));
    const noneMs = median(server('none'));
    const summary = {
      rounds: ROUNDS,
      serverMedianMs: { wrong: round(wrongMs), right: round(rightMs), noPassword: round(noneMs) },
      clientMedianMs: {
        wrong: round(median(client('wrong'))),
        right: round(median(client('right'))),
        noPassword: round(median(client('none'))),
      },
      differencePercentOfRight: round((100 * Math.abs(wrongMs - rightMs)) / rightMs),
    };
    console.log(`password timing: ${JSON.stringify(summary)}`);

    // Both are dominated by the argon2 verification, far above a request that verifies nothing …
    expect(wrongMs).toBeGreaterThan(3 * noneMs);
    expect(rightMs).toBeGreaterThan(3 * noneMs);
    // … and a wrong guess is not told apart by its time (a generous statistical bound, not a speed target).
    expect(Math.abs(wrongMs - rightMs)).toBeLessThan(0.25 * rightMs);
  });
});

const round = (n: number) => Math.round(n * 100) / 100;
