// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { namespacesIn } from './locale-texts';

const NAMESPACES = new Set(['common', 'uploader', 'downloader', 'errors', 'account']);

describe('namespacesIn', () => {
  it('finds the namespaces named by string and template literals of the code', () => {
    const code = `
      const a = t('uploader:title');
      const b = t(\`errors:code.\${code}\`);
      const keys = { label: "downloader:size" };
      const plain = 'no namespace here: uploader';
      const other = 'team:members';
    `;
    expect(namespacesIn(code, NAMESPACES)).toEqual(['downloader', 'errors', 'uploader']);
  });

  it('ignores comments and types, which are never run', () => {
    const code = `
      // t('account:profile') in a comment
      /** "common:title" in a doc comment */
      interface Problem { key: 'uploader:too_long' }
      type Key = 'errors:generic';
      const x = value as 'downloader:size';
      export function f(p: 'account:x'): 'account:y' { return p; }
    `;
    expect(namespacesIn(code, NAMESPACES, 'ts')).toEqual([]);
  });

  it('reads JSX', () => {
    expect(
      namespacesIn(
        `export const A = () => <p title={t('account:name')}>{t("common:hi")}</p>;`,
        NAMESPACES,
        'tsx',
      ),
    ).toEqual(['account', 'common']);
  });
});
