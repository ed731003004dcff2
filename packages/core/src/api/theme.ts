import { z } from 'zod';
import { hasLayoutControlChars } from '../rules/text.js';

/**
 * The theme of an account or team (spec §3 Theme) and the per-transfer customization (spec §3 transfer form
 * `customization`). Images and the video are Ferry's own copies, uploaded first (ThemeAsset); the theme holds
 * their paths, never an address elsewhere.
 */

/** A hex colour `#RRGGBB` (or `#RGB`). */
const Hex = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'not a hex colour');

export { DEFAULT_THEME_COLORS } from '../rules/theme-defaults.js';

export const THEME_ASSET_KINDS = ['logo', 'wallpaper', 'mailHeader', 'video'] as const;
export type ThemeAssetKind = (typeof THEME_ASSET_KINDS)[number];

/** Where Ferry serves a theme asset; the id is 24 random alphanumerics. */
export const THEME_ASSET_PATH = '/api/theme/assets/';
export const ThemeAssetId = z.string().regex(/^[A-Za-z0-9]{24}$/, 'not an asset id');
/** The path of one of Ferry's theme assets (`/api/theme/assets/{assetId}`). */
export const ThemeAssetUrl = z
  .string()
  .regex(/^\/api\/theme\/assets\/[A-Za-z0-9]{24}$/, 'not the address of an uploaded theme asset');

/** The asset id of a ThemeAssetUrl, or null for anything else. */
export function themeAssetIdOf(url: string | null | undefined): string | null {
  const m = /^\/api\/theme\/assets\/([A-Za-z0-9]{24})$/.exec(url ?? '');
  return m ? (m[1] ?? null) : null;
}

/** Wallpapers that rotate on one page, at most. */
export const MAX_WALLPAPERS = 10;

const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => !v.includes('\u0000') && !hasLayoutControlChars(v), 'must be one line of text');

/** Spec §3 Theme as `GET /api/theme` answers it: colours filled with the defaults, nulls where unset. */
export const Theme = z.object({
  subdomainName: z.string().nullable(),
  /** The host the theme was answered for when it is an owner's (subdomain or custom domain); null on the main host. */
  domain: z.string().nullable(),
  /** Set only when answered for a widget; null otherwise. */
  widgetId: z.string().nullable(),
  backgroundColor: Hex,
  actionColor: Hex,
  startbtnColor: Hex,
  customization: z.object({
    /** The first of `wallpaperURLs` (spec §3 field), or null. */
    wallpaperURL: z.string().nullable(),
    /** Wallpapers shown in turn on the pages that show one. */
    wallpaperURLs: z.array(z.string()),
    /** A background video, shown instead of the wallpapers where it can play. */
    backgroundVideoURL: z.string().nullable(),
  }),
  uploader: z.object({
    /** The uploader's label for the recipients field (replaces "Recipients"). */
    recipientLabel: z.string().nullable(),
    /** The uploader's subject line (its title). */
    subject: z.string().nullable(),
  }),
  logoURL: z.string().nullable(),
  /** The header image of the HTML mails of the account or team. */
  mailHeaderURL: z.string().nullable(),
  /** Whether this server lets owners claim a subdomain (a page then shows "Your address"). */
  subdomainsEnabled: z.boolean(),
});
export type Theme = z.infer<typeof Theme>;

/**
 * `PUT /api/user/users/{uid}/customization`: the Theme fields to change; an absent field is left as it is, null
 * resets it (a colour to its default). `wallpaperURLs` wins over `wallpaperURL` when both are given; `wallpaperURL`
 * alone makes the list that one image. `subdomainName` goes to the host directory only when it changes.
 */
export const ThemeUpdate = z.object({
  subdomainName: z.string().trim().toLowerCase().max(63).nullable().optional(),
  backgroundColor: Hex.nullable().optional(),
  actionColor: Hex.nullable().optional(),
  startbtnColor: Hex.nullable().optional(),
  customization: z
    .object({
      wallpaperURL: ThemeAssetUrl.nullable().optional(),
      wallpaperURLs: z.array(ThemeAssetUrl).max(MAX_WALLPAPERS).optional(),
      backgroundVideoURL: ThemeAssetUrl.nullable().optional(),
    })
    .optional(),
  uploader: z
    .object({
      recipientLabel: line(60).nullable().optional(),
      subject: line(200).nullable().optional(),
    })
    .optional(),
  logoURL: ThemeAssetUrl.nullable().optional(),
  mailHeaderURL: ThemeAssetUrl.nullable().optional(),
});
export type ThemeUpdate = z.input<typeof ThemeUpdate>;

/** An uploaded image (re-encoded by Ferry) or video. */
export const ThemeAsset = z.object({
  assetId: z.string(),
  kind: z.enum(THEME_ASSET_KINDS),
  url: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  createdAt: z.string(),
});
export type ThemeAsset = z.infer<typeof ThemeAsset>;

export const ThemeAssetUploadQuery = z.object({ kind: z.enum(THEME_ASSET_KINDS) });

/** `GET /api/user/users/{uid}/customization`: the saved theme (not the host's) with its assets. */
export const OwnerCustomization = z.object({
  theme: Theme,
  assets: z.array(ThemeAsset),
  /** False on a free plan: the page shows what a paid plan brings; saving is refused. */
  editable: z.boolean(),
});
export type OwnerCustomization = z.infer<typeof OwnerCustomization>;

/**
 * Spec §3 transfer form `customization`: one transfer's download page, over the account theme. The wallpaper must
 * be one of the sender's (or their team's) uploaded wallpapers. Paid plans; a team member when the manager's
 * uploader settings allow it (allowCustomization).
 */
export const TransferCustomization = z.object({
  wallpaperURL: ThemeAssetUrl.optional(),
  backgroundColor: Hex.optional(),
  actionColor: Hex.optional(),
  startbtnColor: Hex.optional(),
});
export type TransferCustomization = z.input<typeof TransferCustomization>;

/** A transfer's customization as a download page reads it (nulls where the account theme applies). */
export const TransferCustomizationView = z.object({
  wallpaperURL: z.string().nullable(),
  backgroundColor: z.string().nullable(),
  actionColor: z.string().nullable(),
  startbtnColor: z.string().nullable(),
});
export type TransferCustomizationView = z.infer<typeof TransferCustomizationView>;
