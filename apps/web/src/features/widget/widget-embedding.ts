import { localePrefixOf } from '@ferry/core';
import { type RefObject, useEffect, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { detectLocale, specLocaleOf, UI_LOCALES, type UiLocale } from '../../i18n';

/** The message /widget.js listens for to size the iframe (apps/server widget-script.routes.ts). */
export const HEIGHT_MESSAGE = 'ferry:widget-height';

/**
 * `?lang=fr` (or fr-CA, ja, jp) when it is a translated language, else the browser's; never saved for the app.
 */
export function widgetLocale(lang: string | null, browserLanguages: readonly string[]): UiLocale {
  const code = specLocaleOf(lang ?? '');
  if (code && (UI_LOCALES as readonly string[]).includes(code)) return code as UiLocale;
  return detectLocale(null, browserLanguages);
}

function browserLanguages(): string[] {
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language].filter(Boolean);
}

/** The widget speaks the language its embedder asks for (`?lang=`), else the visitor's browser's. */
export function useWidgetLanguage(): void {
  const { i18n } = useTranslation();
  const [search] = useSearchParams();
  const lang = search.get('lang');
  useLayoutEffect(() => {
    const wanted = widgetLocale(lang, browserLanguages());
    if (i18n.language !== wanted) void i18n.changeLanguage(wanted);
  }, [lang, i18n]);
  // The page around shows through: the widget draws its own card.
  useLayoutEffect(() => {
    document.documentElement.classList.add('is-widget');
    return () => document.documentElement.classList.remove('is-widget');
  }, []);
}

/**
 * Inside a frame, tells the embedding page the widget's height whenever it changes, so that /widget.js sizes
 * the iframe to it (no inner scroll bar). Only a number leaves the frame, so any target origin may hear it.
 */
export function useReportHeight(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = root.current;
    if (!element || window.parent === window || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const report = () => {
      const height = Math.ceil(element.getBoundingClientRect().height);
      if (height === last || height <= 0) return;
      last = height;
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    };
    const observer = new ResizeObserver(report);
    observer.observe(element);
    report();
    return () => observer.disconnect();
  }, [root]);
}

/** `/widgets/{widgetId}`: the page other sites frame, which runs without the app's session (app.tsx). */
export function isWidgetPath(pathname: string): boolean {
  return /^\/widgets\/[^/]+\/?$/.test(localePrefixOf(pathname)?.rest ?? pathname);
}
