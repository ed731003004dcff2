import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTENT_DIR } from './content.js';
import { CHROME_SCHEMA, GROUP_SCHEMA, UNTRANSLATED_FIELDS } from './content-schema.js';

/**
 * Names, codes and technical terms that read the same in every language: a translated value may equal English
 * when nothing else is left once these are taken out (site-content.test.ts, the site crawl).
 */
export const SAME_IN_EVERY_LANGUAGE = [
  'Ferry',
  'WeTransfer',
  'Smash',
  'Filemail',
  'Dropbox Transfer',
  'Dropbox',
  'TransferXL',
  'Send Anywhere',
  'SendGB',
  'SwissTransfer',
  'Outlook',
  'Gmail',
  'Google',
  'Microsoft',
  'Apple',
  'Chrome',
  'Safari',
  'Firefox',
  'Edge',
  'Windows',
  'macOS',
  'Linux',
  'iOS',
  'Android',
  'iPhone',
  'iPad',
  'PowerShell',
  'Node.js',
  'Node',
  'npm',
  'tus',
  'PostgreSQL',
  'Redis',
  'S3',
  'ClamAV',
  'OpenID Connect',
  'OIDC',
  'SAML',
  'argon2id',
  'SHA-256',
  'ZIP64',
  'ZIP',
  'HTTPS',
  'HTTP',
  'TLS',
  'HSTS',
  'API',
  'REST',
  'SDK',
  'CLI',
  'JSON',
  'CSV',
  'vCard',
  'PDF',
  'HEIC',
  'JPEG',
  'PNG',
  'MP4',
  'MOV',
  'RAW',
  'GDPR',
  'VAT',
  'IBAN',
  'Stripe',
  'PayPal',
  'Caddy',
  'nginx',
  'Premium',
  'Team',
  'Enterprise',
  'TEAM10',
  'TEAM25',
  'PREMIUM',
  'TEAM',
  'ENTERPRISE',
  'GB',
  'MB',
  'TB',
  'kB',
  'OK',
  'FAQ',
  'URL',
  'ID',
  'IP',
  'E-mail',
];

const NAME_PATTERN = new RegExp(
  `(${[...SAME_IN_EVERY_LANGUAGE]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})`,
  'g',
);

/** Whether text says nothing but names, codes, numbers and marks (so it may be the same as English). */
export function isNameLike(text: string): boolean {
  const bare = text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/`[^`]*`/g, '')
    .replace(/\{\w+\}/g, '')
    .replace(/\b[a-z][a-z0-9_-]*\.[a-z0-9]{2,4}\b/gi, '') // file names
    .replace(/--?[a-z-]+/g, '') // flags
    .replace(/\b[a-z][a-z0-9]*(?:[._][a-z0-9][\w.…]*|::[\w.…]*)/gi, '') // cookie, storage and setting names (ferry_session, ferry.locale, tus::…)
    .replace(/\/[a-z0-9/_-]*/gi, '') // paths
    .replace(NAME_PATTERN, '')
    .replace(/\bvs\b/g, '');
  return !/\p{L}{2,}/u.test(bare);
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const LINKS = /\]\(([^)\s]+)\)/g;
const BOLD = /\*\*/g;
const PLACEHOLDERS = /\{(\w+)\}/g;
const sorted = (re: RegExp, s: string) =>
  [...s.matchAll(re)]
    .map((m) => m[1] ?? m[0])
    .sort()
    .join(' ');

/**
 * How a translation differs from English where it must not: its shape (pages, blocks, keys, list lengths), the
 * fields copied as they are (type, href, image, code…), the links and bold marks inside text, the chrome's
 * placeholders — and every text left equal to English that is more than names. One line per problem.
 */
export function translationProblems(english: Json, other: Json, at = ''): string[] {
  if (typeof english === 'string') {
    if (typeof other !== 'string') return [`${at}: must be text`];
    const field = at.split('.').at(-1) ?? '';
    // The frame's words (chrome.json ui.*) are all text, whatever their key is called.
    if (UNTRANSLATED_FIELDS.has(field) && !at.startsWith('ui.'))
      return other === english ? [] : [`${at}: must stay "${english}"`];
    const problems: string[] = [];
    if (other.trim() === '') problems.push(`${at}: empty`);
    if (other === english && !isNameLike(english))
      problems.push(`${at}: not translated ("${english.slice(0, 60)}")`);
    if (sorted(LINKS, english) !== sorted(LINKS, other))
      problems.push(`${at}: links differ from English (${sorted(LINKS, english)})`);
    if ((english.match(BOLD) ?? []).length !== (other.match(BOLD) ?? []).length)
      problems.push(`${at}: **bold** marks differ from English`);
    if (sorted(PLACEHOLDERS, english) !== sorted(PLACEHOLDERS, other))
      problems.push(`${at}: placeholders differ from English`);
    return problems;
  }
  if (Array.isArray(english)) {
    if (!Array.isArray(other)) return [`${at}: must be a list`];
    if (other.length !== english.length)
      return [`${at}: ${other.length} items, English has ${english.length}`];
    return english.flatMap((item, i) => translationProblems(item, other[i]!, `${at}[${i}]`));
  }
  if (english && typeof english === 'object') {
    if (!other || typeof other !== 'object' || Array.isArray(other)) return [`${at}: must be an object`];
    const problems: string[] = [];
    for (const key of Object.keys(other))
      if (!(key in english)) problems.push(`${at}.${key}: not in English`);
    for (const key of Object.keys(english)) {
      if (!(key in other)) problems.push(`${at}.${key}: missing`);
      else problems.push(...translationProblems(english[key]!, other[key]!, at ? `${at}.${key}` : key));
    }
    return problems;
  }
  return english === other ? [] : [`${at}: must be ${JSON.stringify(english)}`];
}

/** Every problem of one language's folder against English: schema, missing files, and translationProblems. */
export function languageProblems(code: string, dir: URL = CONTENT_DIR): string[] {
  const files = readdirSync(new URL('en/', dir)).filter((n) => n.endsWith('.json'));
  return files.flatMap((name) => {
    const english = JSON.parse(readFileSync(new URL(`en/${name}`, dir), 'utf8')) as Json;
    let other: Json;
    try {
      other = JSON.parse(readFileSync(new URL(`${code}/${name}`, dir), 'utf8')) as Json;
    } catch (error) {
      return [`${code}/${name}: ${(error as Error).message.split('\n')[0]}`];
    }
    const schema = name === 'chrome.json' ? CHROME_SCHEMA : GROUP_SCHEMA;
    const parsed = schema.safeParse(other);
    if (!parsed.success)
      return parsed.error.issues.map((i) => `${code}/${name}: ${i.path.join('.')}: ${i.message}`);
    return translationProblems(english, other).map((p) => `${code}/${name}: ${p}`);
  });
}

// `npx tsx apps/server/src/site/content-check.ts fr de` prints each language's problems (exit 1 when any).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let failed = false;
  for (const code of process.argv.slice(2)) {
    const problems = languageProblems(code);
    console.log(`${code}: ${problems.length === 0 ? 'complete' : `${problems.length} problems`}`);
    for (const p of problems.slice(0, 200)) console.log(`  ${p}`);
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
