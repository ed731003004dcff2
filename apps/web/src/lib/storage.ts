/**
 * localStorage that never throws: private windows, full quotas and disabled storage only lose the saved
 * value, never the page.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function browserStore(): KeyValueStore | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function readJson(key: string, store = browserStore()): unknown {
  try {
    const text = store?.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown, store = browserStore()): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: the value is simply not kept.
  }
}

export function removeKey(key: string, store = browserStore()): void {
  try {
    store?.removeItem(key);
  } catch {
    // Nothing to clean up if storage is unavailable.
  }
}
