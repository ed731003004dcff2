import {
  APP_ERROR_STATUS,
  BILLING_FREQUENCIES,
  bcp47Of,
  ChosenPlan,
  LimitError,
  LOCALES,
  PLAN_TYPES,
} from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { UI_LOCALES } from './index';

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

/** Every translation file, read here at once (the app loads each on demand, one chunk per language). */
const files = import.meta.glob<Tree>('./locales/*.json', { eager: true, import: 'default' });
const trees = new Map(
  Object.entries(files).map(([file, tree]) => [file.slice('./locales/'.length, -'.json'.length), tree]),
);
const enTree = trees.get('en') as Tree;
const others = [...trees.keys()].filter((code) => code !== 'en').sort();

/** Languages whose 'many' form (large numbers: "de millions") i18next asks only for counts a page never shows. */
const MANY_OPTIONAL = new Set(['fr', 'it', 'es', 'pt']);

/**
 * Values a translation may leave as in English. For every language: names and codes (plans, formats, brands,
 * protocols) and example addresses. Per language: words that are the same in that language (reviewed).
 */
const SAME_AS_ENGLISH: readonly string[] = [
  'Premium',
  'Premium 2 TB',
  'Premium 5 TB',
  'Premium 10 TB',
  'Team',
  'Team 10',
  'Team 25',
  'Enterprise',
  'API',
  'CSV',
  'vCard',
  'PDF',
  '(PDF)',
  'SHA-256',
  'PayPal',
  'URL (https)',
  'Webhooks',
  'Widget',
  'Widgets',
  // The word many languages took from English or share with it (de, fr, it, nl, pl, tr, …).
  'Logo',
  'Token',
  'E-mail',
  'E-mails',
  'VAT',
  'name@example.com',
];
const SAME_IN: Record<string, readonly string[]> = {
  ccs: ['Export:'],
  da: [
    'Administration',
    'Dashboard',
    'Download',
    'Download {{name}}',
    'Download · {{product}}',
    'Journal',
    'Menu',
    'Send',
    'Status',
    'Type',
    'Upload',
    'User agent',
    '{{count}} download',
    '{{count}} downloads',
    '{{count}} upload',
    '{{count}} uploads',
  ],
  de: [
    '(optional)',
    'optional',
    'Optional',
    'Optional.',
    'Dashboard',
    'Download · {{product}}',
    'Journal',
    'Manager',
    'Name',
    'Name (A–Z)',
    'Status',
    'Transfer',
    'Transfers',
    'Upload',
  ],
  es: ['No', 'Plan', 'Total'],
  fr: [
    'Action',
    'Actions',
    'Active',
    'Administration',
    'Contacts',
    'Date',
    'Journal',
    'Menu',
    'Message',
    'Notes',
    'Options',
    'Pause',
    'Permissions',
    'Question {{number}}',
    'Total',
    'Type',
  ],
  it: [
    'Account',
    'Dashboard',
    'Download · {{product}}',
    'File',
    'Menu',
    'No',
    'Password',
    'User agent',
    '{{count}} download',
    '{{count}} file',
    '{{count}} file · {{size}}',
  ],
  nb: ['Pause', 'Plan', 'Send', 'Sending', 'Status', 'Type'],
  nl: [
    'Account',
    'Accounts',
    'Actor',
    'Dashboard',
    'Filters',
    'Later',
    'Menu',
    'Status',
    'Transfer',
    'Transfers',
    'Type',
    '{{count}} download',
    '{{count}} downloads',
    '{{count}} transfer',
    '{{count}} transfers',
    '{{count}} upload',
    '{{count}} uploads',
  ],
  no: ['Pause', 'Plan', 'Send', 'Sending', 'Status', 'Type'],
  pl: ['Menu', 'Plan', 'Status', 'Transfer', '{{count}} transfer'],
  pt: [
    'Download · {{product}}',
    'Menu',
    'Status',
    'Total',
    'Upload',
    'User agent',
    '{{count}} download',
    '{{count}} downloads',
  ],
  ro: ['Card', 'Manager', 'Plan', 'Status', 'Total', 'Transfer', '{{count}} transfer'],
  sv: ['Administration', 'Plan', 'Status'],
  tr: ['Form', 'Plan'],
};

/** Every string of a tree by its full key ("ns:a.b_one"), plural forms apart. */
function entriesOf(tree: Tree, prefix = ''): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}${prefix.includes(':') ? '.' : ':'}${key}` : key;
    if (typeof value === 'string') out.push([path, value]);
    else out.push(...entriesOf(value, path));
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1] as string).sort();

describe('the registered languages', () => {
  it('are the translation files present, each a spec locale, English first', () => {
    expect([...UI_LOCALES].sort()).toEqual([...trees.keys()].sort());
    for (const code of trees.keys()) expect(LOCALES as readonly string[], code).toContain(code);
    expect(UI_LOCALES[0]).toBe('en');
  });
});

describe.each(others)('the %s translation', (code) => {
  const tree = trees.get(code) as Tree;
  const categories = new Intl.PluralRules(bcp47Of(code)).resolvedOptions().pluralCategories as string[];

  it('has exactly the keys of English', () => {
    const mine = keysOf(tree);
    const english = keysOf(enTree);
    const missing = [...english].filter((key) => !mine.has(key));
    const extra = [...mine].filter((key) => !english.has(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it("has the plural forms of its language's rules for every plural key", () => {
    const wrong: string[] = [];
    for (const key of keysOf(enTree)) {
      if (pluralForms(enTree, key).length === 0) continue;
      const forms = new Set(pluralForms(tree, key));
      if (MANY_OPTIONAL.has(code)) forms.add('many');
      const wanted = new Set(categories);
      if (MANY_OPTIONAL.has(code)) wanted.add('many');
      if ([...wanted].some((c) => !forms.has(c)) || [...forms].some((c) => !wanted.has(c)))
        wrong.push(`${key}: ${[...forms].sort().join(',')}`);
    }
    expect(wrong, `wanted ${categories.join(',')}`).toEqual([]);
  });

  it('keeps the {{placeholders}} of English', () => {
    const wrong: string[] = [];
    for (const [key, text] of entriesOf(tree)) {
      const base = key.replace(PLURAL, '');
      const other = lookup(enTree, `${base}_other`);
      if (other === undefined) {
        if (placeholders(text).join() !== placeholders(lookup(enTree, key) ?? '').join()) wrong.push(key);
        continue;
      }
      // A plural form may leave the count out ("one file"); the other form keeps them all.
      const allowed = new Set([...placeholders(other), ...placeholders(lookup(enTree, `${base}_one`) ?? '')]);
      if (placeholders(text).some((name) => !allowed.has(name))) wrong.push(key);
      if (key.endsWith('_other') && placeholders(text).join() !== placeholders(other).join()) wrong.push(key);
    }
    expect(wrong).toEqual([]);
  });

  it('is translated: no value equal to English but names, codes and words the language shares', () => {
    const same = new Set([...SAME_AS_ENGLISH, ...(SAME_IN[code] ?? [])]);
    const untranslated = entriesOf(tree)
      .filter(([key, text]) => text === lookup(enTree, key))
      .filter(([, text]) => !same.has(text) && !/^[\s\p{P}\p{S}]*$/u.test(text.replace(/{{\w+}}/g, '')))
      .map(([key, text]) => `${key} = ${JSON.stringify(text)}`);
    expect(untranslated).toEqual([]);
  });
});

describe('translations', () => {
  it('every plural key of English has its "one" and "other" forms', () => {
    for (const key of keysOf(enTree)) {
      const forms = pluralForms(enTree, key);
      if (forms.length > 0) expect(forms, key).toEqual(expect.arrayContaining(['one', 'other']));
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
    const missing = [...used].filter((key) => [...trees.values()].some((tree) => !exists(tree, key)));
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
    const missing = built.filter((key) => [...trees.values()].some((tree) => !exists(tree, key)));
    expect(missing).toEqual([]);
  });
});
