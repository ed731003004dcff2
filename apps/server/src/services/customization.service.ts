import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DEFAULT_THEME_COLORS,
  MAX_WALLPAPERS,
  type OwnerCustomization,
  type PlanType,
  THEME_ASSET_PATH,
  type Theme,
  type ThemeAsset,
  type ThemeAssetKind,
  ThemeUpdate,
  TransferCustomization,
  type TransferCustomizationView,
  themeAssetIdOf,
  themeContrastProblems,
  type UploaderSettings,
} from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import type { PgCustomizationRepository, ThemeAssetRecord } from '../db/customization.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import type { ThemeMedia } from '../media/theme-media.js';
import type { BlobStore } from '../storage/blob-store.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { planOf } from './effective-plan.js';
import type { HostDirectory } from './host-ports.js';
import type { RateLimiter } from './ports.js';
import type { OwnerReceiveBrand } from './receive-points.js';

/** The saved fields of a theme (themes.settings); absent ones take the defaults. */
export interface StoredTheme {
  backgroundColor?: string | null;
  actionColor?: string | null;
  startbtnColor?: string | null;
  wallpaperURLs?: string[];
  backgroundVideoURL?: string | null;
  recipientLabel?: string | null;
  subject?: string | null;
  logoURL?: string | null;
  mailHeaderURL?: string | null;
}

/** How the HTML mails of an account or team look (mail/templates/layout.ts). */
export interface MailBrand {
  /** An absolute URL of the header image, or null. */
  headerImageUrl: string | null;
  backgroundColor: string;
  actionColor: string;
}

/** A sender as TransferService knows them when a transfer is created. */
export interface CustomizingSender {
  userId: string | null;
  plan: PlanType;
  /** Their team (the manager's uid; their own without a manager). */
  teamId: string | null;
  /** A member's: what the manager lets members do. */
  memberSettings: UploaderSettings | null;
}

/** What TransferService asks when a new transfer carries a `customization` (spec §3 transfer form). */
export interface TransferCustomizer {
  /** The customization to store, once checked; throws AppError when it is not allowed or not valid. */
  check(sender: CustomizingSender, input: TransferCustomization): Promise<Record<string, unknown>>;
}

export interface CustomizationOptions {
  /** The server lets owners claim subdomains (a real host directory is wired). */
  subdomainsEnabled: boolean;
  /** Where uploads are prepared (DATA_DIR/tmp). */
  tempDir: string;
  /** Asset uploads per owner and hour. */
  uploadsPerHour: number;
  publicOrigin: () => string;
}

/** An asset as Ferry serves it. */
export interface AssetBody {
  contentType: string;
  size: number;
  open(): Promise<Readable>;
}

const SINGLE: ReadonlySet<ThemeAssetKind> = new Set(['logo', 'mailHeader', 'video']);
/** Which Theme field may point at which kind of asset. */
const FIELD_KIND = {
  logoURL: 'logo',
  mailHeaderURL: 'mailHeader',
  backgroundVideoURL: 'video',
} as const satisfies Record<string, ThemeAssetKind>;

const urlOf = (id: string) => `${THEME_ASSET_PATH}${id}`;

/**
 * The customization of an account or team (spec §3 Theme; /dashboard/customization): paid plans only, set by the
 * account itself or, for a team, by its manager and applied to every member. Also the theme a host or a download
 * page shows, the per-transfer customization and the look of the owner's mails.
 */
export class CustomizationService implements TransferCustomizer {
  constructor(
    private readonly repo: PgCustomizationRepository,
    private readonly accounts: Pick<PgAccountRepository, 'user'>,
    private readonly blobs: Pick<BlobStore, 'read' | 'putFile' | 'delete'>,
    private readonly media: ThemeMedia,
    private readonly hosts: HostDirectory,
    private readonly limiter: RateLimiter,
    private readonly options: CustomizationOptions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** GET /api/theme: the theme of the host's owner; on the main host the signed-in user's team's, else defaults. */
  async themeFor(hostname: string, auth: Authenticated | null): Promise<Theme> {
    const host = await this.hosts.ownerOf(hostname.toLowerCase());
    const ownerId = host?.ownerId ?? (auth ? (auth.user.managerId ?? auth.user.id) : null);
    const stored = ownerId ? await this.appliedTheme(ownerId) : null;
    return this.view(stored ?? {}, {
      subdomainName: ownerId ? await this.hosts.subdomainOf(ownerId) : null,
      domain: host?.host ?? null,
    });
  }

  /** GET /api/user/users/{uid}/customization: the saved theme and assets, for the account or its team's manager. */
  async ownerCustomization(auth: Authenticated | null, uid: string): Promise<OwnerCustomization> {
    const owner = await this.owner(auth, uid);
    return {
      theme: await this.ownerView(owner.id),
      assets: (await this.repo.assets(owner.id)).map(assetView),
      editable: this.paid(owner),
    };
  }

  /** PUT /api/user/users/{uid}/customization. */
  async update(auth: Authenticated | null, uid: string, input: ThemeUpdate): Promise<Theme> {
    const patch = ThemeUpdate.parse(input);
    const owner = await this.editable(auth, uid);
    checkContrast(patch, '');
    const current = ((await this.repo.settingsOf(owner.id)) ?? {}) as StoredTheme;
    const next: StoredTheme = { ...current };
    for (const key of ['backgroundColor', 'actionColor', 'startbtnColor'] as const)
      if (patch[key] !== undefined) next[key] = patch[key]?.toUpperCase() ?? null;
    const assets = new Map((await this.repo.assets(owner.id)).map((a) => [a.id, a]));
    const own = (field: string, url: string | null | undefined, kind: ThemeAssetKind) => {
      if (url === null || url === undefined) return url;
      const asset = assets.get(themeAssetIdOf(url) ?? '');
      if (!asset || asset.kind !== kind)
        throw new AppError('VALIDATION_FAILED', `Not one of your uploaded ${kind} files.`, {
          details: { field },
        });
      return url;
    };
    for (const [field, kind] of Object.entries(FIELD_KIND) as Array<
      [keyof typeof FIELD_KIND, ThemeAssetKind]
    >) {
      const value = field === 'backgroundVideoURL' ? patch.customization?.backgroundVideoURL : patch[field];
      const checked = own(
        field === 'backgroundVideoURL' ? 'customization.backgroundVideoURL' : field,
        value,
        kind,
      );
      if (checked !== undefined) next[field] = checked;
    }
    const c = patch.customization;
    const wallpapers =
      c?.wallpaperURLs ??
      (c?.wallpaperURL !== undefined ? (c.wallpaperURL ? [c.wallpaperURL] : []) : undefined);
    if (wallpapers) {
      next.wallpaperURLs = [...new Set(wallpapers)].map(
        (url, i) => own(`customization.wallpaperURLs.${i}`, url, 'wallpaper') as string,
      );
    }
    if (patch.uploader?.recipientLabel !== undefined)
      next.recipientLabel = patch.uploader.recipientLabel || null;
    if (patch.uploader?.subject !== undefined) next.subject = patch.uploader.subject || null;
    // The host directory is asked only for a change: the GET answer put back as it is leaves the name alone.
    if (patch.subdomainName !== undefined) {
      const name = patch.subdomainName || null;
      if (name !== (await this.hosts.subdomainOf(owner.id))) await this.hosts.claimSubdomain(owner.id, name);
    }
    await this.repo.saveSettings(owner.id, next as Record<string, unknown>);
    return this.ownerView(owner.id);
  }

  /**
   * POST /api/user/users/{uid}/customization/assets?kind=…: stores a logo, wallpaper, mail header or video. A new
   * logo, mail header or video replaces the old one (its blob is deleted, the theme points at the new one).
   */
  async uploadAsset(
    auth: Authenticated | null,
    uid: string,
    kind: ThemeAssetKind,
    body: Readable,
  ): Promise<ThemeAsset> {
    const owner = await this.editable(auth, uid);
    const allowed = await this.limiter.hit(`theme-assets:${owner.id}`, this.options.uploadsPerHour, 3600);
    if (!allowed.allowed)
      throw new AppError('RATE_LIMITED', 'Too many uploads: try again later.', {
        retryAfterSeconds: allowed.retryAfterSeconds,
      });
    if (kind === 'wallpaper' && (await this.repo.countAssets(owner.id, 'wallpaper')) >= MAX_WALLPAPERS)
      throw new AppError('VALIDATION_FAILED', `At most ${MAX_WALLPAPERS} wallpapers: delete one first.`, {
        details: { field: 'kind', max: MAX_WALLPAPERS },
      });
    await fs.mkdir(this.options.tempDir, { recursive: true });
    const work = await fs.mkdtemp(path.join(this.options.tempDir, 'theme-'));
    try {
      const prepared = await this.media.prepare(kind, body, work);
      const id = randomAlphanumeric(24);
      const blobKey = `theme/${id}`;
      await this.blobs.putFile(blobKey, prepared.path, prepared.contentType);
      const previous = SINGLE.has(kind)
        ? (await this.repo.assets(owner.id)).filter((a) => a.kind === kind)
        : [];
      const asset = await this.repo.addAsset({
        id,
        ownerId: owner.id,
        kind,
        blobKey,
        contentType: prepared.contentType,
        size: prepared.size,
        width: prepared.width,
        height: prepared.height,
      });
      for (const old of previous) await this.removeAsset(owner.id, old, urlOf(id));
      return assetView(asset);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  /** DELETE …/customization/assets/{assetId}: the blob goes, and the theme no longer points at it. */
  async deleteAsset(auth: Authenticated | null, uid: string, assetId: string): Promise<void> {
    const owner = await this.owner(auth, uid);
    const asset = await this.repo.asset(assetId);
    if (!asset || asset.ownerId !== owner.id) throw new AppError('NOT_FOUND', 'No such asset.');
    await this.removeAsset(owner.id, asset, null);
  }

  /** GET /api/theme/assets/{assetId}: anyone may see an owner's branding. */
  async assetBody(assetId: string): Promise<AssetBody> {
    const asset = /^[A-Za-z0-9]{24}$/.test(assetId) ? await this.repo.asset(assetId) : null;
    if (!asset) throw new AppError('NOT_FOUND', 'No such asset.');
    return { contentType: asset.contentType, size: asset.size, open: () => this.blobs.read(asset.blobKey) };
  }

  /** Spec §3 transfer form `customization`, checked for TransferService. */
  async check(sender: CustomizingSender, input: TransferCustomization): Promise<Record<string, unknown>> {
    const c = TransferCustomization.parse(input);
    if (!sender.userId || sender.plan === 'NONE')
      throw new AppError('FORBIDDEN', 'Customizing a download page comes with a paid plan.', {
        details: { field: 'customization' },
      });
    if (sender.memberSettings && !sender.memberSettings.allowCustomization)
      throw new AppError('FORBIDDEN', "Your team's manager has not allowed customized download pages.", {
        details: { setting: 'allowCustomization' },
      });
    checkContrast(c, 'customization.');
    if (c.wallpaperURL) {
      const asset = await this.repo.asset(themeAssetIdOf(c.wallpaperURL) ?? '');
      if (asset?.kind !== 'wallpaper' || asset.ownerId !== (sender.teamId ?? sender.userId))
        throw new AppError('VALIDATION_FAILED', 'The wallpaper must be one of your own.', {
          details: { field: 'customization.wallpaperURL' },
        });
    }
    return {
      wallpaperURL: c.wallpaperURL ?? null,
      backgroundColor: c.backgroundColor?.toUpperCase() ?? null,
      actionColor: c.actionColor?.toUpperCase() ?? null,
      startbtnColor: c.startbtnColor?.toUpperCase() ?? null,
    };
  }

  /** The owner's theme (their team's) and this transfer's customization, for its download page. */
  async brandOf(found: { ownerId: string | null; customization?: Record<string, unknown> | null }): Promise<{
    theme: Theme | null;
    customization: TransferCustomizationView | null;
  }> {
    if (!found.ownerId) return { theme: null, customization: null };
    const stored = await this.teamThemeOf(found.ownerId);
    const c = found.customization;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return {
      theme: stored ? this.view(stored, { subdomainName: null, domain: null }) : null,
      customization: c
        ? {
            wallpaperURL: text(c.wallpaperURL),
            backgroundColor: text(c.backgroundColor),
            actionColor: text(c.actionColor),
            startbtnColor: text(c.startbtnColor),
          }
        : null,
    };
  }

  /** The look of the mails of a transfer owner's account or team; null: Ferry's own. */
  async mailBrandOf(ownerId: string | null): Promise<MailBrand | null> {
    const stored = ownerId ? await this.teamThemeOf(ownerId) : null;
    if (!stored) return null;
    return {
      headerImageUrl: stored.mailHeaderURL ? `${this.options.publicOrigin()}${stored.mailHeaderURL}` : null,
      backgroundColor: stored.backgroundColor ?? DEFAULT_THEME_COLORS.backgroundColor,
      actionColor: stored.actionColor ?? DEFAULT_THEME_COLORS.actionColor,
    };
  }

  /** The colours and logo of an owner's applied theme, for their request, inbox and widget pages; null without one. */
  async receiveThemeOf(ownerId: string): Promise<OwnerReceiveBrand | null> {
    const stored = await this.teamThemeOf(ownerId);
    if (!stored) return null;
    return {
      colors: {
        backgroundColor: stored.backgroundColor ?? null,
        actionColor: stored.actionColor ?? null,
        startbtnColor: stored.startbtnColor ?? null,
      },
      logoURL: stored.logoURL ?? null,
    };
  }

  /** The absolute address of the logo of an owner's applied theme (a download page's link preview), or null. */
  async logoUrlOf(ownerId: string): Promise<string | null> {
    const stored = await this.teamThemeOf(ownerId);
    return stored?.logoURL ? `${this.options.publicOrigin()}${stored.logoURL}` : null;
  }

  /** The theme that applies to a user's things: their team's (the manager's) or their own account's. */
  private async teamThemeOf(userId: string): Promise<StoredTheme | null> {
    const user = await this.accounts.user(userId);
    if (!user) return null;
    return this.appliedTheme(user.managerId ?? user.id, user.managerId ? undefined : user);
  }

  /**
   * A saved theme that applies now: its owner is on a paid plan (a lapsed plan shows Ferry's look). `known` is the
   * owner's record when the caller has it already (one query less).
   */
  private async appliedTheme(ownerId: string, known?: UserRecord): Promise<StoredTheme | null> {
    const owner = known ?? (await this.accounts.user(ownerId));
    if (!owner || !this.paid(owner)) return null;
    return (await this.repo.settingsOf(ownerId)) as StoredTheme | null;
  }

  private async ownerView(ownerId: string): Promise<Theme> {
    const stored = ((await this.repo.settingsOf(ownerId)) ?? {}) as StoredTheme;
    return this.view(stored, { subdomainName: await this.hosts.subdomainOf(ownerId), domain: null });
  }

  private view(stored: StoredTheme, host: { subdomainName: string | null; domain: string | null }): Theme {
    const wallpapers = stored.wallpaperURLs ?? [];
    return {
      subdomainName: host.subdomainName,
      domain: host.domain,
      widgetId: null,
      backgroundColor: stored.backgroundColor ?? DEFAULT_THEME_COLORS.backgroundColor,
      actionColor: stored.actionColor ?? DEFAULT_THEME_COLORS.actionColor,
      startbtnColor: stored.startbtnColor ?? DEFAULT_THEME_COLORS.startbtnColor,
      customization: {
        wallpaperURL: wallpapers[0] ?? null,
        wallpaperURLs: wallpapers,
        backgroundVideoURL: stored.backgroundVideoURL ?? null,
      },
      uploader: { recipientLabel: stored.recipientLabel ?? null, subject: stored.subject ?? null },
      logoURL: stored.logoURL ?? null,
      mailHeaderURL: stored.mailHeaderURL ?? null,
      subdomainsEnabled: this.options.subdomainsEnabled,
    };
  }

  /** Deletes an asset's row and blob; the theme's fields that pointed at it point at `replacement` (or nothing). */
  private async removeAsset(ownerId: string, asset: ThemeAssetRecord, replacement: string | null) {
    const settings = ((await this.repo.settingsOf(ownerId)) ?? null) as StoredTheme | null;
    const url = urlOf(asset.id);
    if (settings) {
      const next: StoredTheme = { ...settings };
      for (const field of Object.keys(FIELD_KIND) as Array<keyof typeof FIELD_KIND>)
        if (next[field] === url) next[field] = replacement;
      next.wallpaperURLs = (next.wallpaperURLs ?? []).filter((u) => u !== url);
      await this.repo.saveSettings(ownerId, next as Record<string, unknown>);
    }
    await this.repo.deleteAsset(asset.id);
    await this.blobs.delete(asset.blobKey);
  }

  private paid(owner: UserRecord): boolean {
    return planOf(owner, this.now()) !== 'NONE';
  }

  private managerOnly(): AppError {
    return new AppError('FORBIDDEN', "Your team's manager sets the team's customization.", {
      details: { reason: 'TEAM_MANAGER_ONLY' },
    });
  }

  /** The account whose theme `uid` names, as its owner or their team's member sees it; strangers learn nothing. */
  private async owner(auth: Authenticated | null, uid: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    if (uid !== auth.user.id && uid !== auth.user.managerId)
      throw new AppError('NOT_FOUND', 'No such account.');
    // A member (of this team or any) never reads or changes a theme: their manager's applies to them.
    if (auth.user.managerId) throw this.managerOnly();
    const owner = await this.accounts.user(uid);
    if (!owner) throw new AppError('NOT_FOUND', 'No such account.');
    return owner;
  }

  private async editable(auth: Authenticated | null, uid: string): Promise<UserRecord> {
    const owner = await this.owner(auth, uid);
    if (!this.paid(owner))
      throw new AppError(
        'FORBIDDEN',
        'Customization comes with a paid plan (Premium, Team or Enterprise): upgrade to use your own logo, colours and wallpapers.',
        { details: { reason: 'PAID_PLAN_REQUIRED', field: 'planType' } },
      );
    return owner;
  }
}

/** Refuses colours whose text would not read (core theme-contrast rule), naming each field. */
function checkContrast(
  colors: { backgroundColor?: string | null; actionColor?: string | null; startbtnColor?: string | null },
  prefix: string,
): void {
  const problems = themeContrastProblems(colors);
  const first = problems[0];
  if (!first) return;
  throw new AppError(
    'VALIDATION_FAILED',
    `Text on ${first.field} would be hard to read (contrast ${first.ratio}:1, at least ${first.min}:1 needed).`,
    {
      details: {
        field: `${prefix}${first.field}`,
        contrast: problems.map((p) => ({ ...p, field: `${prefix}${p.field}` })),
      },
    },
  );
}

function assetView(asset: ThemeAssetRecord): ThemeAsset {
  return {
    assetId: asset.id,
    kind: asset.kind,
    url: urlOf(asset.id),
    contentType: asset.contentType,
    size: asset.size,
    width: asset.width,
    height: asset.height,
    createdAt: asset.createdAt.toISOString(),
  };
}
