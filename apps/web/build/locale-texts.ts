import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, parseAst, type ResolvedConfig } from 'vite';

/** The module the app imports the loaders from (src/vite-env.d.ts declares it). */
export const LOCALE_TEXTS_MODULE = 'virtual:locale-texts';
const RESOLVED = `\0${LOCALE_TEXTS_MODULE}`;
/** `locales/fr.json?texts=uploader`: one namespace of one language, a chunk of its own. */
const QUERY = '?texts=';
const SOURCE = /\.[cm]?[jt]sx?$/;

type Tree = Record<string, unknown>;
/** Where TypeScript puts types in the tree (`x as T`, `f<T>()`, `(a: T): U`): no code under them. */
const TYPE_KEYS = new Set([
  'typeAnnotation',
  'typeParameters',
  'typeArguments',
  'returnType',
  'superTypeArguments',
]);

function languageFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort();
}

/**
 * The namespaces a module's code names in its strings (`'uploader:title'`, `` `errors:code.${code}` ``): string
 * literals and the first part of template literals that begin with `<namespace>:`. Comments and types are not
 * run, so they name none. A string that only looks like a key (an event actor `uploader:…`) loads a namespace for nothing,
 * never one too few.
 */
export function namespacesIn(
  code: string,
  namespaces: ReadonlySet<string>,
  lang: 'js' | 'jsx' | 'ts' | 'tsx' = 'js',
): string[] {
  const found = new Set<string>();
  const consider = (text: unknown) => {
    if (typeof text !== 'string') return;
    const colon = text.indexOf(':');
    if (colon > 0 && namespaces.has(text.slice(0, colon))) found.add(text.slice(0, colon));
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const n = node as { type?: string; value?: unknown; quasis?: { value: { cooked?: string } }[] };
    if (n.type === 'Literal') consider(n.value);
    else if (n.type === 'TemplateLiteral') consider(n.quasis?.[0]?.value.cooked);
    else if (n.type === 'TSTypeAliasDeclaration' || n.type === 'TSInterfaceDeclaration') return;
    for (const [key, value] of Object.entries(node)) {
      // types are not run: a key named in a type alone asks for nothing
      if (key !== 'type' && !TYPE_KEYS.has(key) && typeof value === 'object') visit(value);
    }
  };
  visit(parseAst(code, { lang }));
  return [...found].sort();
}

/**
 * Each language's texts are split by namespace (the top-level keys of `locales/<code>.json`: common, uploader,
 * downloader, …), each its own small chunk, so a page fetches the texts its code names and no more:
 * - the build emits `assets/texts/<code>.<namespace>-<hash>.js` for every pair, `<hash>` one for all of them
 *   (the locale files' content), so the app finds any of them by name without a table of 351 chunk names;
 * - `virtual:locale-texts` exports `LOCALE_CODES` and `loadLocaleTexts(code, namespace)` (in development and
 *   tests it imports `locales/<code>.json?texts=<namespace>` from the source, which this plugin serves);
 * - every module of the app (and of core, which it bundles) that names keys of a namespace in its strings gets
 *   a call `needTexts([...namespaces])` of `registry` (src/i18n/texts.ts) appended: evaluating the module asks
 *   for its texts, and the page is drawn once they are there (main.tsx, the router's lazy routes).
 * The locale files stay as they are, one per language, the one place translators edit.
 */
export function localeTexts(options: { localesDir: string; registry: string; sources: string[] }): Plugin {
  const localesDir = path.resolve(options.localesDir);
  const registry = path.resolve(options.registry);
  const sources = options.sources.map((dir) => path.resolve(dir) + path.sep);
  const readTree = (file: string): Tree => JSON.parse(readFileSync(file, 'utf8')) as Tree;
  let config: ResolvedConfig | null = null;
  /** Read once per build (and per change of a locale file when serving). */
  let scanned: { languages: Map<string, string[]>; namespaces: Set<string>; hash: string } | null = null;
  const scan = () => {
    if (!scanned) {
      const languages = new Map<string, string[]>();
      const digest = createHash('sha256');
      for (const file of languageFiles(localesDir)) {
        const text = readFileSync(path.join(localesDir, file), 'utf8');
        digest.update(file).update(text);
        languages.set(file.slice(0, -'.json'.length), Object.keys(JSON.parse(text) as Tree));
      }
      const namespaces = new Set([...languages.values()].flat());
      scanned = { languages, namespaces, hash: digest.digest('hex').slice(0, 10) };
    }
    return scanned;
  };
  const building = () => config?.command === 'build';
  const textsFile = (language: string, ns: string, hash: string) =>
    `${config?.build.assetsDir ?? 'assets'}/texts/${language}.${ns}-${hash}.js`;

  return {
    name: 'ferry:locale-texts',
    configResolved(resolved) {
      config = resolved;
    },
    buildStart() {
      scanned = null;
      const { languages, hash } = scan();
      for (const language of languages.keys()) this.addWatchFile(path.join(localesDir, `${language}.json`));
      if (!building()) return;
      for (const [language, namespaces] of languages)
        for (const ns of namespaces)
          this.emitFile({
            type: 'chunk',
            id: `${path.join(localesDir, `${language}.json`)}${QUERY}${ns}`,
            fileName: textsFile(language, ns, hash),
            // an app build drops what entries export: this one is imported for its export
            preserveSignature: 'strict',
          });
    },
    watchChange(id) {
      if (path.dirname(id) === localesDir) scanned = null;
    },
    resolveId(id) {
      return id === LOCALE_TEXTS_MODULE ? RESOLVED : null;
    },
    load(id) {
      if (id === RESOLVED) {
        const { languages, hash } = scan();
        const codes = `export const LOCALE_CODES = ${JSON.stringify([...languages.keys()])};\n`;
        if (building()) {
          // textsFile's name, beside the chunk this module is bundled into (every chunk is in the assets folder)
          return (
            codes +
            "const here = import.meta.url.slice(0, import.meta.url.lastIndexOf('/') + 1);\n" +
            `export const loadLocaleTexts = (language, ns) => import(/* @vite-ignore */ \`\${here}texts/\${language}.\${ns}-${hash}.js\`);\n`
          );
        }
        const dir = `/${path
          .relative(config?.root ?? process.cwd(), localesDir)
          .split(path.sep)
          .join('/')}`;
        return (
          codes +
          `export const loadLocaleTexts = (language, ns) => import(/* @vite-ignore */ \`${dir}/\${language}.json${QUERY}\${ns}\`);\n`
        );
      }
      const query = id.indexOf(QUERY);
      if (query === -1) return null;
      const file = id.slice(0, query);
      if (path.dirname(file) !== localesDir) return null;
      this.addWatchFile(file);
      // JSON.parse of a string literal: faster for the browser to read than the same object literal
      // `?texts=<ns>`, with whatever else the dev server adds (`&import`)
      const ns = new URLSearchParams(id.slice(query + 1)).get('texts') ?? '';
      const texts = JSON.stringify(readTree(file)[ns] ?? {});
      return { code: `export default JSON.parse(${JSON.stringify(texts)});\n`, moduleType: 'js' };
    },
    transform(code, id) {
      if (id.includes('?') || id.includes(`${path.sep}node_modules${path.sep}`) || !SOURCE.test(id))
        return null;
      if (id === registry || /\.test\.[jt]sx?$/.test(id) || !sources.some((dir) => id.startsWith(dir)))
        return null;
      const ext = path.extname(id).replace(/^\.[cm]?/, '');
      const lang = ext === 'tsx' || ext === 'ts' || ext === 'jsx' ? ext : 'js';
      const needed = namespacesIn(code, scan().namespaces, lang);
      if (needed.length === 0) return null;
      return {
        code: `${code}\nimport { needTexts as __needTexts } from ${JSON.stringify(registry)};\n__needTexts(${JSON.stringify(needed)});\n`,
        map: null,
      };
    },
  };
}

const webRoot = fileURLToPath(new URL('..', import.meta.url));

/** The plugin as the web app uses it: its locales, its registry, its own and core's sources. */
export function localeTextsPlugin(): Plugin {
  return localeTexts({
    localesDir: path.join(webRoot, 'src/i18n/locales'),
    registry: path.join(webRoot, 'src/i18n/texts.ts'),
    sources: [path.join(webRoot, 'src'), path.join(webRoot, '../../packages/core/src')],
  });
}
