import { APP_ERROR_STATUS, BILLING_FREQUENCIES, ChosenPlan, LimitError, PLAN_TYPES } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import fr from './locales/fr.json';

type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** "ns:a.b" keys of a resource tree, plural forms folded into their base key. */
function keysOf(tree: Tree, prefix = ''): Set<string> {
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}${prefix.includes(':') ? '.' : ':'}${key}` : key;
    if (typeof value === 'string') keys.add(path.replace(PLURAL, ''));
    else for (const k of keysOf(value, path)) keys.add(k);
  }
  return keys;
}

function lookup(tree: Tree, key: string): string | undefined {
  const [ns, path] = key.split(':') as [string, string];
  let node: string | Tree | undefined = tree[ns];
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

function pluralForms(tree: Tree, key: string): string[] {
  const [ns, path] = key.split(':') as [string, string];
  const parts = path.split('.');
  const last = parts.pop() as string;
  let node: string | Tree | undefined = tree[ns];
  for (const part of parts) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'object') return [];
  return Object.keys(node)
    .filter((k) => k.startsWith(`${last}_`))
    .map((k) => k.slice(last.length + 1))
    .filter((suffix) => /^(zero|one|two|few|many|other)$/.test(suffix));
}

function exists(tree: Tree, key: string): boolean {
  return lookup(tree, key) !== undefined || pluralForms(tree, key).length > 0;
}

/** Every source file of the app as text (Vite's glob import, so no Node API is needed). */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const enTree = en as Tree;
const frTree = fr as Tree;

describe('translations', () => {
  it('fr has exactly the keys of en', () => {
    expect([...keysOf(frTree)].sort()).toEqual([...keysOf(enTree)].sort());
  });

  it('every plural key has its "one" and "other" forms in both languages', () => {
    for (const key of keysOf(enTree)) {
      for (const tree of [enTree, frTree]) {
        const forms = pluralForms(tree, key);
        if (forms.length > 0) expect(forms, key).toEqual(expect.arrayContaining(['one', 'other']));
      }
    }
  });

  it('keeps the same {{placeholders}} in fr as in en', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    for (const key of keysOf(enTree)) {
      const enText = lookup(enTree, key) ?? lookup(enTree, `${key}_other`) ?? '';
      const frText = lookup(frTree, key) ?? lookup(frTree, `${key}_other`) ?? '';
      expect(placeholders(frText), key).toEqual(placeholders(enText));
    }
  });

  it('has the notices the spec names, spelled as the spec spells them', () => {
    for (const key of [
      'uploader:notif_filename_too_long',
      'uploader:notif_invalid_filename',
      'uploader:notif_file_is_exe',
      'uploader:notif_file_is_iso',
      'uploader:notif_file_is_htm',
      'uploader:notif_extension_authorized',
      'downloader:too_many_dowloads',
      'downloader:notif_too_many_previews',
    ]) {
      expect(exists(enTree, key), key).toBe(true);
    }
    expect(lookup(enTree, 'uploader:notif_extension_authorized')).toContain('{{extensions}}');
  });

  it('has a message for every API error code and every limit', () => {
    for (const code of Object.keys(APP_ERROR_STATUS))
      expect(exists(enTree, `errors:code.${code}`), code).toBe(true);
    for (const limit of LimitError.shape.limit.options) {
      expect(exists(enTree, `errors:limit.${limit}`), limit).toBe(true);
    }
  });

  it('has every key the source code asks for', () => {
    const used = new Set<string>();
    expect(Object.keys(sources).length).toBeGreaterThan(30);
    for (const text of Object.values(sources)) {
      for (const match of text.matchAll(
        /['"`]((?:common|uploader|downloader|notifications|auth|account|errors|operator|billing):[\w.]+)['"`]/g,
      )) {
        used.add(match[1] as string);
      }
    }
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((key) => !exists(enTree, key) || !exists(frTree, key));
    expect(missing).toEqual([]);
  });

  it('has the keys the account pages build from enums (plans, billing frequencies, strengths, sections)', () => {
    const built = [
      ...PLAN_TYPES.map((plan) => `auth:plan_${plan}`),
      ...ChosenPlan.shape.type.options.map((code) => `auth:plan_code_${code}`),
      ...BILLING_FREQUENCIES.map((frequency) => `auth:frequency_${frequency}`),
      ...['empty', 'too_short', 'weak', 'fair', 'good', 'strong'].map((s) => `auth:strength_${s}`),
      ...['profile', 'security', 'integrations'].map((s) => `account:nav_${s}`),
    ];
    const missing = built.filter((key) => !exists(enTree, key) || !exists(frTree, key));
    expect(missing).toEqual([]);
  });
});
