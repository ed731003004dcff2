import type { TransferFile } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import type { SelectedFile } from './selection';
import { engineFilesOfPending, pairCreatedFiles } from './upload-plan';

function selected(name: string, size: number, relativePath: string | null = null): SelectedFile {
  return { key: name, file: new File(['x'.repeat(size)], name), name, relativePath, size };
}
function created(id: string, name: string, size: number, relativePath: string | null = null): TransferFile {
  return { id, name, size, relativePath, sha256: null, uploaded: false };
}

describe('pairCreatedFiles', () => {
  it('pairs in request order', () => {
    const pairs = pairCreatedFiles(
      [selected('a', 1), selected('b', 2, 'd/b')],
      [created('ID0001', 'a', 1), created('ID0002', 'b', 2, 'd/b')],
    );
    expect(pairs.map((p) => [p.selected.name, p.created.id])).toEqual([
      ['a', 'ID0001'],
      ['b', 'ID0002'],
    ]);
  });

  it('matches by name, size and path when the server answers in another order', () => {
    const pairs = pairCreatedFiles(
      [selected('a', 1, 'x/a'), selected('a', 1, 'y/a')],
      [created('ID000Y', 'a', 1, 'y/a'), created('ID000X', 'a', 1, 'x/a')],
    );
    expect(pairs.map((p) => p.created.id)).toEqual(['ID000X', 'ID000Y']);
  });

  it('throws when a file is missing from the answer', () => {
    expect(() => pairCreatedFiles([selected('a', 1)], [created('ID0001', 'b', 1)])).toThrow(/a/);
  });
});

describe('engineFilesOfPending', () => {
  it('uses re-added files and the server state', () => {
    const file = new File(['xx'], 'b');
    const files = engineFilesOfPending(
      {
        transferId: 'T',
        uploadToken: 't',
        uploadEndpoint: '/u',
        link: '/dl/T',
        expiresAt: '',
        createdAt: '',
        files: [
          { id: 'ID0001', name: 'a', size: 1, relativePath: null, lastModified: 0 },
          { id: 'ID0002', name: 'b', size: 2, relativePath: null, lastModified: 0 },
        ],
      },
      new Map([['ID0002', { file }]]),
      new Set(['ID0001']),
    );
    expect(files.map((f) => [f.id, f.uploaded, f.file])).toEqual([
      ['ID0001', true, null],
      ['ID0002', false, file],
    ]);
  });
});
