import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, randomFile, sendTransfer, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * Fastify answers HEAD with the GET handler. Under /api a HEAD (a link checker, a mail scanner) must change
 * nothing: it answers 405, except where a HEAD is meant (blob downloads, health probes; tus has its own).
 */
let sink: SmtpSink;
let ferry: TestFerry;

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, ANONYMOUS_SENDER_VERIFICATION: 'false', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});
beforeEach(() => {
  sink.messages.length = 0;
});

const waitForMail = (to: string) => sink.waitFor((m) => m.to.includes(to));
const head = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${ferry.baseUrl}${path}`, { method: 'HEAD', headers, redirect: 'manual' });

/** Every GET path under /api the app serves, parameters as printed (`:transferId`). */
function apiGetPaths(): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  for (const line of ferry.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${m[2]!.replace(/(:\w+)(?:\|:\w+)+/g, '$1')}`;
    stack[depth] = path;
    if (m[3]?.split(', ').includes('GET') && path.startsWith('/api')) paths.push(path);
  }
  return paths;
}

/** Where a HEAD is meant: it reads and changes nothing there (the documentation's static files list HEAD). */
const HEAD_MEANT = [
  '/api/health',
  '/api/ready',
  '/api/transfer/downloads/blob/:token',
  '/api/transfer/downloads/renditions/:token',
  '/api/docs/*',
];

describe('HEAD under /api', () => {
  it('answers 405 (Allow: GET) on every GET route but the few where a HEAD is meant', async () => {
    const paths = apiGetPaths();
    expect(paths).toContain('/api/transfer/downloads/info');
    expect(paths).toContain('/api/auth/auth/sign-out');
    const answers: Record<string, string> = {};
    for (const path of paths.filter((p) => !HEAD_MEANT.includes(p))) {
      const res = await head(path.replace(/:\w+/g, 'AAAAAAAAAAAAAAAA').replace(/\*$/, 'x'));
      answers[path] = `${res.status} ${res.headers.get('allow')}`;
    }
    const expected = Object.fromEntries(Object.keys(answers).map((p) => [p, '405 GET']));
    expect(answers).toEqual(expected);
    expect((await head('/api/health')).status).toBe(200);
  });

  it('does not mark an S1 recipient as having opened their link', async () => {
    const bob = `bob-${process.pid}@recipients.example`;
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      type: 'S1',
      senderEmail: `alice-${process.pid}@sender.example`,
      recipients: [bob],
    });
    const secret = /\?userSecret=([A-Za-z0-9_-]+)/.exec((await waitForMail(bob)).parsed.text || '')![1]!;
    const info = `/api/transfer/downloads/info?transferId=${t.transferId}&userSecret=${secret}`;
    const opened = async () =>
      (
        await query<{ opened_at: Date | null }>(
          ferry,
          'SELECT opened_at FROM transfer_recipients WHERE transfer_id = $1',
          [t.transferId],
        )
      )[0]!.opened_at;
    for (let i = 0; i < 2; i++) expect((await head(info)).status).toBe(405);
    expect(await opened()).toBeNull();
    // The GET does mark it: the check above could fail.
    expect((await api(ferry.baseUrl, info)).status).toBe(200);
    expect(await opened()).not.toBeNull();
  });

  it('does not sign out, neither this session nor every session', async () => {
    const { bearer } = await signedInAccount(
      ferry.baseUrl,
      `head-${process.pid}@people.example`,
      waitForMail,
    );
    for (const q of ['', '?revokeAllSessions=true'])
      expect((await head(`/api/auth/auth/sign-out${q}`, bearer)).status).toBe(405);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer })).status).toBe(200);
    expect((await api(ferry.baseUrl, '/api/auth/auth/sign-out', { headers: bearer })).status).toBe(200);
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer })).status).toBe(401);
  });
});
