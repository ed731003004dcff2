import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const ASSETS_DIR = new URL('../../src/site/assets/', import.meta.url);
export const SCREENSHOTS_DIR = new URL('../../src/site/screenshots/', import.meta.url);

const read = (name: string) => readFileSync(new URL(name, ASSETS_DIR), 'utf8');
const hash = (text: string | Buffer, encoding: 'hex' | 'base64') =>
  createHash('sha256').update(text).digest(encoding);

/**
 * The site's stylesheet and script, read once. Site pages inline the styles (allowed by their hash in the page's
 * Content-Security-Policy) and load the script from a path named by its hash, so it is cached for a year and a
 * new version is a new path.
 */
export class SiteFiles {
  readonly css: string;
  readonly consentCss: string;
  readonly script: string;
  readonly scriptPath: string;
  readonly consentCssPath: string;
  /** 'sha256-…' of the inline <style>. */
  readonly styleHash: string;
  /**
   * The default link-preview image (1200 × 630), og-image.png, made once from og-image.svg with sharp
   * (`node -e "require('sharp')('src/site/assets/og-image.svg').png({compressionLevel: 9})
   * .toFile('src/site/assets/og-image.png')"` in apps/server after changing the SVG); served at a path named by
   * its hash (cached for a year) and at /site/og-image.png.
   */
  readonly ogImage: Buffer;
  readonly ogImagePath: string;

  constructor() {
    this.consentCss = read('consent.css');
    this.css = `${read('site.css')}\n${this.consentCss}`
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\n+/g, '\n');
    this.script = read('site.js');
    this.scriptPath = `/site/site.${hash(this.script, 'hex').slice(0, 12)}.js`;
    this.consentCssPath = `/site/consent.${hash(this.consentCss, 'hex').slice(0, 12)}.css`;
    this.styleHash = `sha256-${hash(this.css, 'base64')}`;
    this.ogImage = readFileSync(new URL('og-image.png', ASSETS_DIR));
    this.ogImagePath = `/site/og-image.${hash(this.ogImage, 'hex').slice(0, 12)}.png`;
  }
}
