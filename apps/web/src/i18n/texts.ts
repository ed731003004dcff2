import type { i18n as I18n } from 'i18next';

/**
 * Which namespaces of the texts the page needs. The build (build/locale-texts.ts) appends `needTexts([...])` to
 * every module that names keys of a namespace, so evaluating the module asks for them: a page fetches the
 * namespaces of the code it runs, each a small chunk of the visitor's language, and no other. `common` is always
 * there (the default namespace).
 */
const wanted = new Set<string>(['common']);
let target: I18n | null = null;
let loading: Promise<unknown> = Promise.resolve();

/** Asks for namespaces: loaded at once once i18next is set up, else with its first load (`wantedTexts`). */
export function needTexts(namespaces: readonly string[]): void {
  const fresh = namespaces.filter((ns) => !wanted.has(ns));
  if (fresh.length === 0) return;
  for (const ns of fresh) wanted.add(ns);
  if (target) {
    const load = target.loadNamespaces(fresh).catch(() => undefined);
    loading = Promise.all([loading, load]);
  }
}

/** The namespaces asked for so far: what i18next loads first. */
export function wantedTexts(): string[] {
  return [...wanted];
}

/** From now on, namespaces asked for are loaded into `instance` (called by initI18n). */
export function loadTextsInto(instance: I18n): void {
  target = instance;
}

/** Resolves once every namespace asked for until then (and meanwhile) is loaded, or failed to load. */
export async function textsReady(): Promise<void> {
  let current: Promise<unknown>;
  do {
    current = loading;
    await current;
  } while (current !== loading);
}

/**
 * A lazy import whose module is handed over once the texts it asked for are loaded: a page or panel fetched on
 * demand is drawn in words, never in keys.
 */
export function withTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    const module = await load();
    await textsReady();
    return module;
  };
}
