import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Accessibility checks shared by the suites that open pages in Chromium: axe-core's WCAG 2.1 A/AA rules on a page as
 * it is, and a walk with Tab through every control.
 */

/** The rules checked: WCAG 2.0 and 2.1, levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core in every document the context opens, before the page's own scripts: for a run over many pages, where
 * sending and evaluating the library after each navigation (what axeViolations does otherwise) costs more than the
 * check itself.
 */
export async function axeInEveryPage(context: BrowserContext): Promise<void> {
  await context.addInitScript(axe.source);
}

/** axe-core's WCAG 2.1 A/AA violations on the page as it is now, one readable line per rule and element. */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  const has = await page.evaluate(() => 'axe' in window);
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy (kept on) refuses inline scripts.
  if (!has) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: { run(ctx: Document, o: unknown): Promise<{ violations: AxeViolation[] }> };
        }
      ).axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((r) => r.violations),
    AXE_TAGS,
  );
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${label}: ${v.id} (${v.impact ?? '?'}) ${JSON.stringify(n.target)} — ${v.help}`),
  );
}

interface FocusStop {
  key: string;
  visible: boolean;
}

/**
 * Walks the page with Tab from the top: every element that takes focus by keyboard is reached, each shows a focus
 * ring (an outline or a box-shadow under :focus-visible, on itself or on the control that draws it), and Tab goes
 * on past the last one (no trap). Returns the problems found.
 */
export async function tabWalk(page: Page, label: string): Promise<string[]> {
  const expected: string[] = await page.evaluate(() => {
    const all = Array.from(
      document.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]',
      ),
    );
    let n = 0;
    return all
      .filter((e) => {
        if (e.tabIndex < 0 || (e as HTMLButtonElement).disabled || e.closest('[inert]')) return false;
        if (e instanceof HTMLInputElement && e.type === 'hidden') return false;
        const style = getComputedStyle(e);
        if (style.visibility === 'hidden' || e.getClientRects().length === 0) return false;
        // Inside a closed <details> (its content is laid out but hidden, content-visibility: hidden): no stop.
        if (!e.checkVisibility({ visibilityProperty: true })) return false;
        // A radio group is one tab stop: only its checked (or first) radio.
        if (e instanceof HTMLInputElement && e.type === 'radio' && e.name) {
          const group = Array.from(
            document.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(e.name)}"]`),
          );
          const stop = group.find((r) => r.checked) ?? group[0];
          if (stop !== e) return false;
        }
        return true;
      })
      .map((e) => {
        if (!e.dataset.a11yKey) e.dataset.a11yKey = `k${++n}`;
        return e.dataset.a11yKey;
      });
  });
  expect(expected.length, `${label}: focusable elements`).toBeGreaterThan(0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const stops: FocusStop[] = [];
  const seen = new Set<string>();
  let trapped = 0;
  let previous = '';
  for (let i = 0; i < expected.length + 10; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate((): FocusStop => {
      const e = document.activeElement as HTMLElement | null;
      if (!e || e === document.body) return { key: 'body', visible: true };
      const ringOf = (el: Element) => {
        const s = getComputedStyle(el);
        return (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
      };
      // The ring is drawn by the element, or for a visually hidden input (a switch, a card-like option) by what
      // shows it: its label, the element around it or the one right after it.
      const box = e.getBoundingClientRect();
      const painters =
        box.width <= 1 || box.height <= 1
          ? [
              ...Array.from((e as HTMLInputElement).labels ?? []),
              e.parentElement,
              e.nextElementSibling,
            ].filter((x): x is Element => x !== null)
          : [];
      const painted = e.matches(':focus-visible') && (ringOf(e) || painters.some(ringOf));
      return {
        key: e.dataset.a11yKey ?? `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`,
        visible: painted,
      };
    });
    stops.push(stop);
    if (stop.key === previous && stop.key !== 'body') trapped++;
    previous = stop.key;
    seen.add(stop.key);
    if (expected.every((k) => seen.has(k)) && stops.length > expected.length) break;
  }
  console.info(`a11y: ${label}: ${expected.length} tab stops, ${stops.length} Tab presses`);
  const problems: string[] = [];
  const missed = expected.filter((k) => !seen.has(k));
  if (missed.length > 0) {
    const names = await page.evaluate(
      (keys) =>
        keys.map((k) => {
          const e = document.querySelector<HTMLElement>(`[data-a11y-key="${k}"]`);
          return e
            ? `${e.tagName.toLowerCase()}[data-testid=${e.dataset.testid ?? ''}] ${e.outerHTML.slice(0, 80)}`
            : k;
        }),
      missed,
    );
    problems.push(`${label}: not reached by Tab: ${names.join(' | ')}`);
  }
  if (trapped > 0) problems.push(`${label}: focus stayed on one element ${trapped} times (a keyboard trap)`);
  const unseen = stops.filter((s) => !s.visible && s.key !== 'body').map((s) => s.key);
  if (unseen.length > 0) {
    const names = await page.evaluate(
      (keys) =>
        keys.map((k) => {
          const e = document.querySelector<HTMLElement>(`[data-a11y-key="${k}"]`);
          return e ? e.outerHTML.slice(0, 100) : k;
        }),
      [...new Set(unseen)],
    );
    problems.push(`${label}: focus not visible on: ${names.join(' | ')}`);
  }
  return problems;
}
