import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAccount, FakeFerryServer } from '../test/fake-server.js';
import { CredentialStore } from './credentials.js';
import { main } from './main.js';

/** `--api-key KEY` and $FERRY_API_KEY: for one call, winning over a stored sign-in, never stored. */
let root: string;
let server: FakeFerryServer;
let ann: FakeAccount;
let bob: FakeAccount;
const PASSWORD = 'correct horse battery';

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ferry-apikey-'));
  server = new FakeFerryServer(root);
  await server.start();
  ann = server.addAccount({ email: 'ann@example.com', password: PASSWORD, planType: 'PREMIUM' });
  bob = server.addAccount({ email: 'bob@example.com', password: PASSWORD, planType: 'TEAM' });
});
afterEach(async () => {
  await server.kill();
  await rm(root, { recursive: true, force: true });
});

async function ferry(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  stdin.end('');
  const code = await main(['node', 'ferry', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: {
      isTTY: false,
      write: (s: string) => {
        stderr += s;
        return true;
      },
    },
    env: { FERRY_STATE_DIR: path.join(root, 'state'), FERRY_RETRY_SECONDS: '0', ...env },
    signal: new AbortController().signal,
    stdin,
  });
  return { code, stdout, stderr };
}
const stored = () => new CredentialStore(path.join(root, 'state')).get(server.origin);
const credentialFiles = async () =>
  (await readdir(path.join(root, 'state', 'credentials')).catch(() => [])).filter((n) => n.endsWith('.json'));
const meBearers = () =>
  server.state.bearers.filter((b) => b.request === 'GET /api/auth/me').map((b) => b.token);

describe('--api-key and FERRY_API_KEY', () => {
  it('act for that call over a stored sign-in, which stays; --api-key wins over $FERRY_API_KEY', async () => {
    const login = await ferry([
      'login',
      '--server',
      server.origin,
      '--email',
      ann.email,
      '--password',
      PASSWORD,
    ]);
    expect(login.code, login.stderr).toBe(0);
    const annSession = (await stored())!.token;
    const bobKey = server.addApiToken(bob.uid, 'bob ci').token;
    const annKey = server.addApiToken(ann.uid, 'ann ci').token;

    const byFlag = await ferry(['whoami', '--server', server.origin, '--api-key', bobKey]);
    expect(byFlag).toEqual({ code: 0, stdout: 'bob@example.com TEAM\n', stderr: '' });
    const byFlagFirst = await ferry([`--api-key=${bobKey}`, 'whoami', '--server', server.origin, '--json']);
    expect(JSON.parse(byFlagFirst.stdout)).toMatchObject({ email: 'bob@example.com' });
    const byEnv = await ferry(['whoami', '--server', server.origin], { FERRY_API_KEY: bobKey });
    expect(byEnv.stdout).toBe('bob@example.com TEAM\n');
    const both = await ferry(['whoami', '--server', server.origin, '--api-key', annKey], {
      FERRY_API_KEY: bobKey,
    });
    expect(both.stdout).toBe('ann@example.com PREMIUM\n');
    expect(meBearers().slice(-4)).toEqual([bobKey, bobKey, bobKey, annKey]);

    // The stored sign-in is untouched and used again without the key.
    expect(await stored()).toMatchObject({ kind: 'session', token: annSession, email: ann.email });
    expect((await ferry(['whoami', '--server', server.origin])).stdout).toBe('ann@example.com PREMIUM\n');
    expect(meBearers().at(-1)).toBe(annSession);
  });

  it('works without any sign-in and stores nothing', async () => {
    const key = server.addApiToken(bob.uid).token;
    const run = await ferry(['whoami', '--server', server.origin], { FERRY_API_KEY: key });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('bob@example.com TEAM\n');
    expect(await credentialFiles()).toEqual([]);
    expect(await stored()).toBeNull();
  });

  it('a refused key exits 2 and leaves the stored sign-in alone; a key that is no fry_ token exits 2', async () => {
    await ferry(['login', '--server', server.origin, '--email', ann.email, '--password', PASSWORD]);
    const refused = await ferry(['whoami', '--server', server.origin, '--api-key', 'fry_notatokenatall']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused the token');
    expect((await stored())?.email).toBe(ann.email);
    const bogus = await ferry(['whoami', '--server', server.origin], { FERRY_API_KEY: 'hunter2' });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('not a Ferry API token');
    const missing = await ferry(['whoami', '--server', server.origin, '--api-key']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--api-key needs a value');
  });
});

describe('ferry webhook add|list|remove', () => {
  it('adds a webhook (id and secret, or --json), lists it, removes it; with an API key too', async () => {
    const key = server.addApiToken(bob.uid).token;
    const env = { FERRY_API_KEY: key };
    const added = await ferry(
      [
        'webhook',
        'add',
        'https://hooks.example.com/ferry',
        '--event',
        'downloaded',
        '--event',
        'AVAILABLE',
        '--server',
        server.origin,
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const [id, secret] = added.stdout.trim().split('\n');
    expect(id).toMatch(/^wh_/);
    expect(secret).toMatch(/^whsec_/);
    expect(added.stderr).toContain('not shown again');
    const hook = server.state.webhooks.get(id!);
    expect(hook).toMatchObject({ uid: bob.uid, events: ['DOWNLOADED', 'AVAILABLE'], secret });

    const json = await ferry(
      ['webhook', 'add', 'https://hooks.example.com/all', '--json', '--server', server.origin],
      env,
    );
    const both = JSON.parse(json.stdout);
    expect(Object.keys(both).sort()).toEqual(['id', 'secret']);

    const listed = await ferry(['webhook', 'list', '--server', server.origin], env);
    expect(listed.stdout).toBe(
      `${id}\thttps://hooks.example.com/ferry\tDOWNLOADED,AVAILABLE\n${both.id}\thttps://hooks.example.com/all\tall\n`,
    );
    const listedJson = JSON.parse(
      (await ferry(['webhook', 'list', '--json', '--server', server.origin], env)).stdout,
    );
    expect(listedJson.map((h: { id: string }) => h.id)).toEqual([id, both.id]);

    const removed = await ferry(['webhook', 'remove', id!, '--server', server.origin], env);
    expect(removed.code).toBe(0);
    expect(server.state.webhooks.has(id!)).toBe(false);
    const again = await ferry(['webhook', 'remove', id!, '--server', server.origin], env);
    expect(again.code).toBe(3);
    const bad = await ferry(
      ['webhook', 'add', 'https://x.example', '--event', 'NOPE', '--server', server.origin],
      env,
    );
    expect(bad.code).toBe(1);
    const refused = await ferry(['webhook', 'add', 'http://x.example', '--server', server.origin], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the server refused');
  });
});
