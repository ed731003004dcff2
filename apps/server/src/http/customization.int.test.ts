import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Issue 23 parts 1 and 6: the theme of an account or team (GET /api/theme, PUT /api/user/users/{uid}/customization),
 * its images and video, the per-transfer customization on download pages and the owner's look in mails.
 */
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let manager: Account;
let member: Account;
let free: Account;
let stranger: Account;
let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@theme.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({ env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1' } });
  [manager, member, free, stranger] = await Promise.all(
    ['manager', 'member', 'free', 'stranger'].map(account),
  );
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM theme_assets');
  await query(ferry, 'DELETE FROM themes');
  await query(
    ferry,
    `UPDATE users SET manager_id = NULL, permissions = '{}', plan_type = 'NONE', plan_code = NULL, settings = settings - 'uploaderSettings'`,
  );
  for (const paid of [manager, stranger])
    await query(ferry, `UPDATE users SET plan_type = 'TEAM', plan_code = 'TEAM' WHERE id = $1`, [paid.uid]);
  await query(ferry, `UPDATE users SET manager_id = $2, permissions = '{TRANSFER_MANAGER}' WHERE id = $1`, [
    member.uid,
    manager.uid,
  ]);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const put = (who: Account | null, uid: string, json: unknown) =>
  api(ferry.baseUrl, `/api/user/users/${uid}/customization`, {
    method: 'PUT',
    headers: who?.bearer ?? {},
    json,
  });
const upload = (who: Account, kind: string, body: Buffer, type = 'application/octet-stream') =>
  api(
    ferry.baseUrl,
    `/api/user/users/${manager.uid === who.uid ? manager.uid : who.uid}/customization/assets?kind=${kind}`,
    {
      method: 'POST',
      headers: { ...who.bearer, 'content-type': type },
      body,
    },
  );
const png = (width: number, height: number, color = '#123456') =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

const DEFAULTS = { backgroundColor: '#4052B5', actionColor: '#3F51B5', startbtnColor: '#FF6208' };

describe('GET /api/theme', () => {
  it('answers the defaults, nulls where unset, for anyone on the main host', async () => {
    const res = await api(ferry.baseUrl, '/api/theme');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      subdomainName: null,
      domain: null,
      widgetId: null,
      ...DEFAULTS,
      customization: { wallpaperURL: null, wallpaperURLs: [], backgroundVideoURL: null },
      uploader: { recipientLabel: null, subject: null },
      logoURL: null,
      mailHeaderURL: null,
      subdomainsEnabled: false,
    });
  });

  it("is the signed-in user's team theme on the main host, for the manager and every member", async () => {
    expect(
      (await put(manager, manager.uid, { actionColor: '#1a237e', uploader: { subject: 'Acme files' } }))
        .status,
    ).toBe(200);
    for (const who of [manager, member]) {
      const res = await api(ferry.baseUrl, '/api/theme', { headers: who.bearer });
      expect(res.body.actionColor).toBe('#1A237E');
      expect(res.body.backgroundColor).toBe(DEFAULTS.backgroundColor);
      expect(res.body.uploader).toEqual({ recipientLabel: null, subject: 'Acme files' });
    }
    expect((await api(ferry.baseUrl, '/api/theme', { headers: stranger.bearer })).body.actionColor).toBe(
      DEFAULTS.actionColor,
    );
    // A plan that ended shows Ferry's own look again.
    await query(ferry, `UPDATE users SET plan_type = 'NONE' WHERE id = $1`, [manager.uid]);
    expect((await api(ferry.baseUrl, '/api/theme', { headers: member.bearer })).body.actionColor).toBe(
      DEFAULTS.actionColor,
    );
  });
});

describe("the owner's theme on request and inbox pages", () => {
  it('fills the colours a request or inbox does not set itself', async () => {
    expect(
      (await put(manager, manager.uid, { backgroundColor: '#37474F', actionColor: '#1A237E' })).status,
    ).toBe(200);
    const inbox = async (who: Account, slug: string, customization?: Record<string, string>) => {
      const res = await api(ferry.baseUrl, '/api/receive/inboxes', {
        method: 'POST',
        headers: who.bearer,
        json: { slug, title: 'Drop here', ...(customization ? { customization } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (await api(ferry.baseUrl, `/api/receive/points/inbox/${slug}`)).body.theme;
    };
    const tag = `${process.pid}`;
    expect(await inbox(manager, `team-plain-${tag}`)).toMatchObject({
      backgroundColor: '#37474F',
      actionColor: '#1A237E',
      startbtnColor: DEFAULTS.startbtnColor,
    });
    // The inbox's own colour comes first.
    expect(
      (await inbox(manager, `team-own-${tag}`, { backgroundColor: '#004D40' })).backgroundColor.toUpperCase(),
    ).toBe('#004D40');
    // Someone else's inbox keeps Ferry's colours.
    expect((await inbox(stranger, `other-${tag}`)).backgroundColor.toUpperCase()).toBe(
      DEFAULTS.backgroundColor,
    );
  });

  it("shows the owner's logo on their request, inbox and widget pages, and no one else's", async () => {
    const logo = await upload(manager, 'logo', await png(120, 40, '#1b5e20'));
    expect(logo.status).toBe(201);
    expect((await put(manager, manager.uid, { logoURL: logo.body.url })).status).toBe(200);
    const tag = `${process.pid}-logo`;
    const inboxOf = async (who: Account, slug: string) => {
      const made = await api(ferry.baseUrl, '/api/receive/inboxes', {
        method: 'POST',
        headers: who.bearer,
        json: { slug, title: 'Logos' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.inboxId as string;
    };
    const ours = await inboxOf(manager, `logo-team-${tag}`);
    await inboxOf(stranger, `logo-other-${tag}`);
    // The team's inbox wears the team's logo, on its page and its widget.
    expect((await api(ferry.baseUrl, `/api/receive/points/inbox/logo-team-${tag}`)).body.logoURL).toBe(
      logo.body.url,
    );
    const widget = await api(ferry.baseUrl, `/api/receive/inboxes/${ours}/widgets`, {
      method: 'POST',
      headers: manager.bearer,
      json: { name: 'Site' },
    });
    expect(widget.status, JSON.stringify(widget.body)).toBe(201);
    expect(
      (await api(ferry.baseUrl, `/api/receive/points/widget/${widget.body.widgetId}`)).body.logoURL,
    ).toBe(logo.body.url);
    expect((await api(ferry.baseUrl, `/api/receive/points/inbox/logo-other-${tag}`)).body.logoURL).toBeNull();
    // The logo's bytes are served (a re-encoded image, never what was sent).
    const served = await fetch(`${ferry.baseUrl}${logo.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^image\//);
    // A plan that ended shows Ferry's mark again.
    await query(ferry, `UPDATE users SET plan_type = 'NONE' WHERE id = $1`, [manager.uid]);
    expect((await api(ferry.baseUrl, `/api/receive/points/inbox/logo-team-${tag}`)).body.logoURL).toBeNull();
  });
});

describe('PUT /api/user/users/{uid}/customization', () => {
  it('saves for the account itself (or a team manager) and answers the saved theme', async () => {
    const res = await put(manager, manager.uid, {
      backgroundColor: '#222',
      startbtnColor: '#ffcc00',
      uploader: { recipientLabel: 'Clients', subject: 'Send to Acme' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      backgroundColor: '#222',
      actionColor: DEFAULTS.actionColor,
      startbtnColor: '#FFCC00',
      uploader: { recipientLabel: 'Clients', subject: 'Send to Acme' },
    });
    // Absent fields stay; null resets.
    const again = await put(manager, manager.uid, { backgroundColor: null });
    expect(again.body.backgroundColor).toBe(DEFAULTS.backgroundColor);
    expect(again.body.startbtnColor).toBe('#FFCC00');
    // The GET answer put back as it is changes nothing (subdomainName null is no claim).
    const roundTrip = await put(manager, manager.uid, again.body);
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body).toEqual(again.body);
  });

  it('refuses members (403), free plans (403, said why) and other accounts (404)', async () => {
    const asMember = await put(member, manager.uid, { actionColor: '#000000' });
    expect(asMember.status).toBe(403);
    expect(asMember.body.details.reason).toBe('TEAM_MANAGER_ONLY');
    expect((await put(member, member.uid, { actionColor: '#000000' })).status).toBe(403);
    const asFree = await put(free, free.uid, { actionColor: '#000000' });
    expect(asFree.status).toBe(403);
    expect(asFree.body.message).toMatch(/paid plan/);
    expect((await put(stranger, manager.uid, { actionColor: '#000000' })).status).toBe(404);
    expect((await put(null, manager.uid, { actionColor: '#000000' })).status).toBe(401);
  });

  it('refuses a colour whose text would not read, naming the field', async () => {
    const res = await put(manager, manager.uid, { actionColor: '#FFEB3B' });
    expect(res.status).toBe(400);
    expect(res.body.codes).toContain('VALIDATION_FAILED');
    expect(res.body.details.field).toBe('actionColor');
    expect(res.body.details.contrast[0]).toMatchObject({
      field: 'actionColor',
      against: '#ffffff',
      min: 4.5,
    });
    expect((await put(manager, manager.uid, { actionColor: 'red' })).status).toBe(400);
  });

  it('passes a new subdomain name to the host directory, which refuses it while hosts are off', async () => {
    const res = await put(manager, manager.uid, { subdomainName: 'acme' });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('subdomainName');
  });

  it("takes only the owner's own assets of the right kind", async () => {
    const logo = await upload(manager, 'logo', await png(64, 64));
    const other = await upload(stranger, 'logo', await png(64, 64));
    expect((await put(manager, manager.uid, { logoURL: other.body.url })).body.details.field).toBe('logoURL');
    expect((await put(manager, manager.uid, { mailHeaderURL: logo.body.url })).status).toBe(400);
    expect((await put(manager, manager.uid, { logoURL: 'https://evil.example/x.png' })).status).toBe(400);
    expect((await put(manager, manager.uid, { logoURL: logo.body.url })).body.logoURL).toBe(logo.body.url);
  });
});

describe('theme assets', () => {
  it('re-encodes an image: bounded, WebP, without its metadata, served with nosniff and a sandbox CSP', async () => {
    const photo = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#884422' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret-exif-owner', Artist: 'Someone' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await upload(manager, 'wallpaper', photo, 'image/jpeg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'wallpaper',
      contentType: 'image/webp',
      width: 2560,
      height: 1280,
    });
    expect(res.body.url).toMatch(/^\/api\/theme\/assets\/[A-Za-z0-9]{24}$/);
    const served = await fetch(`${ferry.baseUrl}${res.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals(photo)).toBe(false);
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 2560, height: 1280 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('secret-exif-owner'))).toBe(false);
  });

  it('makes mail header images PNG', async () => {
    const res = await upload(manager, 'mailHeader', await png(2400, 400));
    expect(res.body).toMatchObject({ contentType: 'image/png', width: 1200, height: 200 });
  });

  it('refuses SVG and HTML, whatever their declared type', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    );
    for (const [body, type] of [
      [svg, 'image/svg+xml'],
      [svg, 'image/png'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'text/html'],
    ] as const) {
      const res = await upload(manager, 'logo', body, type);
      expect(res.status).toBe(415);
      expect(res.body.codes).toContain('UNSUPPORTED_MEDIA_TYPE');
    }
    expect((await query(ferry, 'SELECT id FROM theme_assets')).length).toBe(0);
  });

  it('takes MP4 and WebM videos by their signature only, and serves them sandboxed', async () => {
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(200, 1)]);
    const res = await upload(manager, 'video', mp4, 'video/mp4');
    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe('video/mp4');
    const served = await fetch(`${ferry.baseUrl}${res.body.url}`);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await served.arrayBuffer()).equals(mp4)).toBe(true);
    const html = await upload(manager, 'video', Buffer.from('<html>not a video</html>'), 'video/mp4');
    expect(html.status).toBe(415);
  });

  it('refuses a body over the limit', async () => {
    const res = await upload(manager, 'video', Buffer.alloc(51_000_000, 0));
    expect(res.status).toBe(413);
  });

  it('replacing a logo deletes the old blob and points the theme at the new one; deleting removes it', async () => {
    const first = await upload(manager, 'logo', await png(64, 64, '#ff0000'));
    await put(manager, manager.uid, { logoURL: first.body.url });
    const blobOf = async (id: string) =>
      (await query<{ blob_key: string }>(ferry, 'SELECT blob_key FROM theme_assets WHERE id = $1', [id]))[0]
        ?.blob_key;
    const firstBlob = path.join(ferry.dataDir, 'files', (await blobOf(first.body.assetId))!);
    expect(existsSync(firstBlob)).toBe(true);
    const second = await upload(manager, 'logo', await png(64, 64, '#00ff00'));
    expect(existsSync(firstBlob)).toBe(false);
    expect((await fetch(`${ferry.baseUrl}${first.body.url}`)).status).toBe(404);
    const mine = await api(ferry.baseUrl, `/api/user/users/${manager.uid}/customization`, {
      headers: manager.bearer,
    });
    expect(mine.body.theme.logoURL).toBe(second.body.url);
    expect(mine.body.assets.map((a: { assetId: string }) => a.assetId)).toEqual([second.body.assetId]);
    const secondBlob = path.join(ferry.dataDir, 'files', (await blobOf(second.body.assetId))!);
    const gone = await api(
      ferry.baseUrl,
      `/api/user/users/${manager.uid}/customization/assets/${second.body.assetId}`,
      { method: 'DELETE', headers: manager.bearer },
    );
    expect(gone.status).toBe(204);
    expect(existsSync(secondBlob)).toBe(false);
    expect((await api(ferry.baseUrl, '/api/theme', { headers: manager.bearer })).body.logoURL).toBeNull();
  });
});

async function send(who: Account, body: Record<string, unknown>) {
  const data = Buffer.from('hello theme');
  const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: who.bearer,
    json: { type: 'S2', files: [{ name: 'a.txt', size: data.length }], ...body },
  });
  if (created.status !== 201) return created;
  await new TusTestClient(ferry.baseUrl, created.body.uploadToken).upload(
    created.body.transferId,
    created.body.files[0].id,
    data,
  );
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: [{ id: created.body.files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  return created;
}

describe('per-transfer customization', () => {
  it("is validated, and shown on the download page over the team's theme", async () => {
    await put(manager, manager.uid, { backgroundColor: '#263238' });
    const wallpaper = await upload(manager, 'wallpaper', await png(100, 50));
    await query(
      ferry,
      `UPDATE users SET settings = jsonb_set(settings, '{uploaderSettings}', '{"allowCustomization": true}') WHERE id = $1`,
      [manager.uid],
    );
    const sent = await send(member, {
      customization: { wallpaperURL: wallpaper.body.url, actionColor: '#004D40' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${sent.body.transferId}`);
    expect(info.status).toBe(200);
    expect(info.body.theme).toMatchObject({ backgroundColor: '#263238', actionColor: DEFAULTS.actionColor });
    expect(info.body.customization).toEqual({
      wallpaperURL: wallpaper.body.url,
      backgroundColor: null,
      actionColor: '#004D40',
      startbtnColor: null,
    });
    // Without a theme or customization, a transfer's page is Ferry's own.
    const plain = await send(stranger, {});
    const plainInfo = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/info?transferId=${plain.body.transferId}`,
    );
    expect(plainInfo.body.theme).toBeNull();
    expect(plainInfo.body.customization).toBeNull();
  });

  it('refuses free plans, members the manager did not allow, foreign wallpapers and unreadable colours', async () => {
    const wallpaper = await upload(manager, 'wallpaper', await png(100, 50));
    const theirs = await upload(stranger, 'wallpaper', await png(100, 50));
    const freeRes = await send(free, { customization: { actionColor: '#000000' } });
    expect(freeRes.status).toBe(403);
    const notAllowed = await send(member, { customization: { actionColor: '#000000' } });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body.details.setting).toBe('allowCustomization');
    const foreign = await send(manager, { customization: { wallpaperURL: theirs.body.url } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.field).toBe('customization.wallpaperURL');
    const logo = await upload(manager, 'logo', await png(10, 10));
    expect((await send(manager, { customization: { wallpaperURL: logo.body.url } })).status).toBe(400);
    const pale = await send(manager, { customization: { actionColor: '#FFFFFF' } });
    expect(pale.status).toBe(400);
    expect(pale.body.details.field).toBe('customization.actionColor');
    expect((await send(manager, { customization: { wallpaperURL: wallpaper.body.url } })).status).toBe(201);
  });
});

describe('mails', () => {
  it("carry the owner's header image and colour", async () => {
    const header = await upload(manager, 'mailHeader', await png(600, 100));
    await put(manager, manager.uid, { mailHeaderURL: header.body.url, actionColor: '#1B5E20' });
    const to = `recipient-${process.pid}-${++n}@theme.example`;
    const sent = await send(member, { type: 'S1', recipients: [to] });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const mail = await sink.waitFor((m) => m.to.includes(to));
    const html = String(mail.parsed.html);
    expect(html).toContain(`${ferry.publicOrigin}${header.body.url}`);
    expect(html.toLowerCase()).toContain('#1b5e20');
    // Another account's mails keep Ferry's look.
    const other = `recipient-${process.pid}-${++n}@theme.example`;
    await send(stranger, { type: 'S1', recipients: [other] });
    const plain = String((await sink.waitFor((m) => m.to.includes(other))).parsed.html);
    expect(plain).not.toContain('/api/theme/assets/');
    expect(plain.toLowerCase()).not.toContain('#1b5e20');
  });

  it("of an owner's inbox carry the owner's: the received-files mail and the uploader's receipt", async () => {
    const header = await upload(manager, 'mailHeader', await png(600, 100));
    await put(manager, manager.uid, {
      mailHeaderURL: header.body.url,
      backgroundColor: '#5D4037',
      actionColor: '#1B5E20',
    });
    const themed = await receiveInto(manager);
    // The header image on the band's colour in both; the button (the notification's alone) in the action colour.
    for (const mail of [themed.notification, themed.receipt]) {
      const html = String(mail.parsed.html);
      expect(html).toContain(`${ferry.publicOrigin}${header.body.url}`);
      expect(html.toLowerCase()).toContain('background-color:#5d4037');
    }
    expect(String(themed.notification.parsed.html).toLowerCase()).toContain('background-color:#1b5e20');
    // Another owner's keep Ferry's look.
    const plain = await receiveInto(stranger);
    for (const mail of [plain.notification, plain.receipt]) {
      const html = String(mail.parsed.html).toLowerCase();
      expect(html).not.toContain('/api/theme/assets/');
      expect(html).not.toContain('#5d4037');
      expect(html).not.toContain('#1b5e20');
    }
  });
});

/**
 * An S1 inbox of `owner` (which mails the uploader a receipt) and one upload into it; the owner's received-files
 * mail and the uploader's receipt.
 */
async function receiveInto(owner: Account) {
  const slug = `mailed-${process.pid}-${++n}`;
  const inbox = await api(ferry.baseUrl, '/api/receive/inboxes', {
    method: 'POST',
    headers: owner.bearer,
    json: { slug, title: 'Mailed files', linkMode: 'S1' },
  });
  expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
  const uploader = `uploader-${process.pid}-${++n}@theme.example`;
  const data = Buffer.from('files for the owner');
  const created = await api(ferry.baseUrl, '/api/receive/uploads', {
    method: 'POST',
    json: {
      target: { kind: 'inbox', slug },
      uploaderEmail: uploader,
      files: [{ name: 'a.txt', size: data.length }],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { transferId, uploadToken, files } = created.body;
  await new TusTestClient(ferry.baseUrl, uploadToken).upload(transferId, files[0].id, data);
  const done = await api(ferry.baseUrl, `/api/receive/uploads/${transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': uploadToken },
    json: { files: [{ id: files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return {
    notification: await sink.waitFor(
      (m) => m.to.includes(owner.email) && String(m.parsed.text).includes(transferId),
    ),
    receipt: await sink.waitFor((m) => m.to.includes(uploader)),
  };
}
