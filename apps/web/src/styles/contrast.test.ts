import { describe, expect, it } from 'vitest';
import { contrastRatio, textOn } from '../lib/contrast';

// Vitest turns imported CSS into empty modules (even with ?raw), so the stylesheets are read from disk with Node's
// fs, reached through process.getBuiltinModule (the web project has no Node types).
type Fs = { readFileSync(path: string, encoding: 'utf8'): string };
const { readFileSync } = (
  globalThis as unknown as { process: { getBuiltinModule(id: 'node:fs'): Fs } }
).process.getBuiltinModule('node:fs');
const here = decodeURIComponent(import.meta.url.replace(/^file:\/\//, '').replace(/[^/]*$/, ''));
const read = (name: string) => readFileSync(`${here}${name}`, 'utf8');
const baseCss = read('base.css');
const authCss = read('auth.css');
const s1Css = read('s1.css');

/** The custom properties of base.css's :root, e.g. tokens['--color-start'] = '#ff6208'. */
const tokens: Record<string, string> = Object.fromEntries(
  [...(/:root\s*{([^}]*)}/.exec(baseCss)?.[1] ?? '').matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [
    m[1] as string,
    (m[2] as string).trim(),
  ]),
);
const color = (value: string) => (value.startsWith('var(') ? tokens[value.slice(4, -1)] : value) ?? value;

/** The declarations of one rule (`.button-start { … }`) in a stylesheet. */
function rule(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return Object.fromEntries(
    [...body.matchAll(/([\w-]+):\s*([^;]+);/g)].map((m) => [m[1], (m[2] ?? '').trim()]),
  );
}

describe('colour contrast of the app’s text (WCAG AA, 4.5:1)', () => {
  it('keeps the spec’s start colour', () => {
    expect(tokens['--color-start']).toBe('#ff6208');
  });

  it.each([
    ['the start button', baseCss, '.button-start'],
    ['the "This device" badge', authCss, '.badge-success'],
    ['the primary button', baseCss, '.button-primary'],
    ['the waiting step of sending', s1Css, '.send-checklist .is-waiting .send-check'],
  ])('%s', (_, css, selector) => {
    const { color: text, background } = rule(css, selector);
    expect(text, `${selector} color`).toBeDefined();
    expect(background, `${selector} background`).toBeDefined();
    const ratio = contrastRatio(color(text as string), color(background as string));
    expect(ratio, `${selector}: ${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['--color-start-text', '--color-start-hover'],
    ['--color-action-hover', '--color-surface'],
    ['--color-success', '--color-surface'],
    ['--color-text-muted', '--color-surface-muted'],
    ['--color-warn', '--color-warn-bg'],
    ['--color-error', '--color-error-bg'],
  ])('%s on %s', (text, background) => {
    expect(contrastRatio(tokens[text] ?? '', tokens[background] ?? '')).toBeGreaterThanOrEqual(4.5);
  });

  it('gives any owner colour a legible text colour', () => {
    for (const owner of ['#ff6208', '#ffeb3b', '#4052b5', '#000000', '#ffffff', '#7f7f7f'])
      expect(contrastRatio(textOn(owner), owner), owner).toBeGreaterThanOrEqual(4.5);
  });
});
