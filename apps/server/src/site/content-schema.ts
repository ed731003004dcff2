import { z } from 'zod';

/**
 * The shape of the public site's content: one folder per language (the spec's code), apps/server/src/site/content/
 * <code>/<group>.json, each group a set of pages keyed by their bare path ("/about", "/how-to/request-files").
 * A translation keeps the English file's shape exactly — the same pages, blocks, block types, list lengths and
 * every non-text field (type, href, image, code, form, updated) — and translates every other string
 * (site-content.test.ts checks it).
 *
 * Text fields take two inline marks and nothing else: `**bold**` and `[label](/path)` links (a path of the site
 * or the app, written bare — the renderer adds the page's language prefix — or an https:// address).
 */
const text = z.string().min(1);

export const BLOCK_SCHEMA = z.discriminatedUnion('type', [
  /** A section heading (h2); `id` makes it linkable (#form on the enterprise page). */
  z.object({
    type: z.literal('h2'),
    text,
    id: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .optional(),
  }),
  z.object({ type: z.literal('p'), text }),
  z.object({ type: z.literal('list'), items: z.array(text).min(1) }),
  /** A numbered how-to: `image` is a screenshot's file name in site/screenshots (made by the e2e suite). */
  z.object({
    type: z.literal('steps'),
    items: z
      .array(
        z.object({
          title: text,
          text,
          image: z
            .string()
            .regex(/^[a-z0-9-]+\.(png|jpg|webp)$/)
            .optional(),
          alt: text.optional(),
        }),
      )
      .min(1),
  }),
  /** Questions and answers; a page with one gets FAQPage JSON-LD. */
  z.object({ type: z.literal('faq'), items: z.array(z.object({ q: text, a: text })).min(1) }),
  z.object({
    type: z.literal('table'),
    caption: text,
    head: z.array(text).min(2),
    rows: z.array(z.array(text).min(2)).min(1),
  }),
  /** Tiles, each optionally a link. */
  z.object({
    type: z.literal('cards'),
    items: z.array(z.object({ title: text, text, href: z.string().optional() })).min(1),
  }),
  /** A call to action: one prominent link. */
  z.object({ type: z.literal('cta'), text, href: z.string() }),
  /** A side note (a dated fact check, a "this is a template" warning). */
  z.object({ type: z.literal('note'), text }),
  /** A command or code sample, shown as it is (never translated). */
  z.object({ type: z.literal('code'), code: z.string().min(1) }),
  /** The plan table of spec §9, drawn from the plan catalogue in the page's language. */
  z.object({ type: z.literal('plans') }),
  /** A contact form: `contact` (general) or `sales` (the enterprise form, stored and mailed). */
  z.object({ type: z.literal('form'), form: z.enum(['contact', 'sales']) }),
  /** The operator's identity from config (LEGAL_* settings), or a notice that the operator has not filled it. */
  z.object({ type: z.literal('operator') }),
  /** The visitor's cookie choice with a button to change it (the /cookies page). */
  z.object({ type: z.literal('consent') }),
]);
export type SiteBlock = z.infer<typeof BLOCK_SCHEMA>;

export const PAGE_SCHEMA = z.object({
  /** <title> (the renderer appends " · Ferry"); ≤ 60 characters. */
  title: text,
  /** <meta name="description"> and og:description; 70–160 characters. */
  description: text,
  /** The page's h1. */
  heading: text,
  /** The paragraph under the h1. */
  lead: text,
  /** When the facts were last checked (comparisons): YYYY-MM-DD, shown in the page's language. */
  updated: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  blocks: z.array(BLOCK_SCHEMA),
});
export type SitePage = z.infer<typeof PAGE_SCHEMA>;

/** A group file: pages keyed by their bare path. */
export const GROUP_SCHEMA = z.record(z.string().regex(/^\/[a-z0-9/-]*$/), PAGE_SCHEMA);

/** Fields a translation copies unchanged from English. */
export const UNTRANSLATED_FIELDS = new Set(['type', 'href', 'image', 'code', 'form', 'updated', 'id']);

/** A public app page's words (/, /prices…): its <title>, description, and the heading the HTML carries before the app runs. */
export const APP_PAGE_SCHEMA = PAGE_SCHEMA.pick({
  title: true,
  description: true,
  heading: true,
  lead: true,
});

/**
 * chrome.json: the words of the site's frame (menu, footer, cookie consent, forms, the plan table) and of the
 * public app pages' HTML.
 */
export const CHROME_SCHEMA = z.object({
  ui: z.record(z.string().regex(/^[a-zA-Z0-9.]+$/), text),
  app: z.record(z.string().regex(/^\/[a-z0-9/-]*$/), APP_PAGE_SCHEMA),
});
export type SiteChrome = z.infer<typeof CHROME_SCHEMA>;
