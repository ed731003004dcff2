// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

const webRoot = fileURLToPath(new URL('..', import.meta.url));

type Chunk = Rolldown.OutputChunk;

/** The modules a browser loads for chunks `from` and everything they import statically. */
function staticClosure(chunks: Map<string, Chunk>, from: Chunk[]): Set<string> {
  const seen = new Set<string>();
  const modules = new Set<string>();
  const queue = [...from];
  for (let chunk = queue.pop(); chunk; chunk = queue.pop()) {
    if (seen.has(chunk.fileName)) continue;
    seen.add(chunk.fileName);
    for (const id of chunk.moduleIds) modules.add(path.relative(webRoot, id).split(path.sep).join('/'));
    for (const name of chunk.imports) {
      const next = chunks.get(name);
      if (next) queue.push(next);
    }
  }
  return modules;
}

describe('the built web app', () => {
  let chunks: Map<string, Chunk>;
  /** The chunk holding a source module (apps/web-relative path). */
  const chunkOf = (source: string): Chunk => {
    const id = path.join(webRoot, source);
    const found = [...chunks.values()].find((c) => c.moduleIds.includes(id));
    if (!found) throw new Error(`no chunk holds ${source}`);
    return found;
  };

  beforeAll(async () => {
    // The production build, in memory.
    const result = await build({
      root: webRoot,
      configFile: path.join(webRoot, 'vite.config.ts'),
      logLevel: 'silent',
      build: { write: false, sourcemap: false },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    chunks = new Map(
      outputs
        .flatMap((o) => o.output)
        .filter((o): o is Chunk => o.type === 'chunk')
        .map((c) => [c.fileName, c]),
    );
  }, 120_000);

  /** A language's texts, one namespace: a chunk the build emits for each pair (build/locale-texts.ts). */
  const isTexts = (chunk: Chunk) => chunk.facadeModuleId?.includes('?texts=') ?? false;
  /** The app's entry (index.html's script), not the texts chunks, which are emitted as entries too. */
  const appEntries = () => [...chunks.values()].filter((c) => c.isEntry && !isTexts(c));

  it("loads for a signed-out visitor's home page no dashboard, account, QR code or tus code, and no texts", () => {
    // What `/` loads statically: the entry, the main layout route with the uploader behind it.
    const home = staticClosure(chunks, [
      ...appEntries(),
      chunkOf('src/routes/dashboard-main-layout.route.tsx'),
      chunkOf('src/routes/uploader.route.tsx'),
    ]);
    expect(home).toContain('src/features/uploader/uploader-page.tsx');
    const unwanted = [...home].filter((id) =>
      [
        /^src\/routes\/dashboard(?!-main-layout)[\w-]*\.route\.tsx$/,
        /^src\/features\/account\//,
        /^src\/features\/inboxes\//,
        // Billing comes with a signed-in user who has BILLING (only the check of who that is stays).
        /^src\/features\/billing\/(?!billing-notices-slot|billing-state)/,
        /^src\/features\/dashboard\/(?!main-layout|panel-state|return-page|dashboard\.css)/,
        /^src\/features\/receive\/request-/,
        /qr-?code/,
        // The upload protocol's client comes with the first upload.
        /node_modules\/tus-js-client\//,
        // Texts come in their own chunks, the visitor's language only, fetched as the page asks for them.
        /^src\/i18n\/locales\//,
      ].some((pattern) => pattern.test(id)),
    );
    expect(unwanted).toEqual([]);
  });

  it('puts every module in one chunk only (no copy of a library or a helper in two pages)', () => {
    const owners = new Map<string, string[]>();
    for (const chunk of chunks.values())
      for (const id of chunk.moduleIds) owners.set(id, [...(owners.get(id) ?? []), chunk.fileName]);
    const twice = [...owners].filter(([, files]) => files.length > 1).map(([id, files]) => `${id}: ${files}`);
    expect(twice).toEqual([]);
  });

  it("makes each language's namespaces chunks of their own, one name for each, loaded only on demand", () => {
    const entryGraph = staticClosure(chunks, appEntries());
    const locales = path.join(webRoot, 'src/i18n/locales');
    const languages = readdirSync(locales)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length));
    expect(languages.length).toBeGreaterThan(2);
    const texts = [...chunks.values()].filter(isTexts);
    const hashes = new Set<string>();
    let pairs = 0;
    for (const lng of languages) {
      const namespaces = Object.keys(JSON.parse(readFileSync(path.join(locales, `${lng}.json`), 'utf8')));
      expect(namespaces).toContain('common');
      pairs += namespaces.length;
      for (const ns of namespaces) {
        const source = `src/i18n/locales/${lng}.json?texts=${ns}`;
        expect(entryGraph.has(source), source).toBe(false);
        const chunk = texts.find((c) => c.moduleIds.includes(path.join(webRoot, source)));
        // alone in its chunk, at the name the app computes (src/i18n/index.ts: loadLocaleTexts)
        expect(
          chunk?.moduleIds.map((id) => path.relative(webRoot, id)),
          source,
        ).toEqual([source]);
        const name = /^assets\/texts\/([\w-]+)\.(\w+)-(\w+)\.js$/.exec(chunk?.fileName ?? '');
        expect(name?.slice(1, 3), chunk?.fileName).toEqual([lng, ns]);
        hashes.add(name?.[3] ?? '');
      }
    }
    expect(hashes.size).toBe(1);
    expect(texts.length).toBe(pairs);
  });
});

describe('precompressing the build output', () => {
  it('writes a .br and a .gz beside each text file that decode to it, and none for small or binary files', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-precompress-'));
    await fs.mkdir(path.join(dir, 'assets'));
    const script = `export const a = ${JSON.stringify('ferry '.repeat(500))};`;
    await fs.writeFile(path.join(dir, 'assets', 'a.js'), script);
    await fs.writeFile(path.join(dir, 'index.html'), `<!doctype html>${'<p>x</p>'.repeat(100)}`);
    await fs.writeFile(path.join(dir, 'tiny.css'), 'a{}');
    await fs.writeFile(path.join(dir, 'image.png'), Buffer.alloc(4096));

    await precompressDir(dir);

    const read = (name: string) => fs.readFile(path.join(dir, name));
    expect(zlib.brotliDecompressSync(await read('assets/a.js.br')).toString()).toBe(script);
    expect(zlib.gunzipSync(await read('assets/a.js.gz')).toString()).toBe(script);
    expect((await read('index.html.br')).length).toBeLessThan((await read('index.html')).length);
    const names = await fs.readdir(dir);
    expect(names.filter((n) => n.startsWith('tiny.css') || n.startsWith('image.png')).sort()).toEqual([
      'image.png',
      'tiny.css',
    ]);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
