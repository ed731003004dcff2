import { describe, expect, it } from 'vitest';
import {
  collectDropped,
  collectFromInput,
  type DataTransferItemLike,
  type DirectoryEntryLike,
  type EntryLike,
  type FileEntryLike,
  walkEntries,
} from './collect-files';

function fileEntry(fullPath: string, content = 'x', fail = false): FileEntryLike {
  const name = fullPath.split('/').pop() ?? fullPath;
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (success, failure) => (fail ? failure?.(new Error('gone')) : success(new File([content], name))),
  };
}

/** A directory whose reader answers in batches of `batch`, like Chromium's 100-entry pages. */
function dirEntry(fullPath: string, children: EntryLike[], batch = 2): DirectoryEntryLike {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').pop() ?? fullPath,
    fullPath,
    createReader() {
      let offset = 0;
      return {
        readEntries(success) {
          const page = children.slice(offset, offset + batch);
          offset += batch;
          setTimeout(() => success(page), 0);
        },
      };
    },
  };
}

describe('walkEntries', () => {
  it('keeps each file path inside dropped folders and none for loose files', async () => {
    const tree = dirEntry('/photos', [
      fileEntry('/photos/a.jpg'),
      dirEntry('/photos/2024', [fileEntry('/photos/2024/b.jpg'), fileEntry('/photos/2024/c.jpg')]),
      dirEntry('/photos/empty', []),
      fileEntry('/photos/d.jpg'),
      fileEntry('/photos/e.jpg'),
    ]);
    const result = await walkEntries([fileEntry('/loose.txt'), tree]);
    expect(result.files.map((f) => [f.file.name, f.relativePath])).toEqual([
      ['loose.txt', null],
      ['a.jpg', 'photos/a.jpg'],
      ['b.jpg', 'photos/2024/b.jpg'],
      ['c.jpg', 'photos/2024/c.jpg'],
      ['d.jpg', 'photos/d.jpg'],
      ['e.jpg', 'photos/e.jpg'],
    ]);
    expect(result.unreadable).toBe(0);
  });

  it('reads every batch of a large folder', async () => {
    const children = Array.from({ length: 250 }, (_, i) => fileEntry(`/big/f${i}.bin`));
    const result = await walkEntries([dirEntry('/big', children, 100)]);
    expect(result.files).toHaveLength(250);
  });

  it('skips unreadable files and counts them', async () => {
    const result = await walkEntries([
      dirEntry('/d', [fileEntry('/d/ok.txt'), fileEntry('/d/gone.txt', 'x', true)]),
    ]);
    expect(result.files.map((f) => f.relativePath)).toEqual(['d/ok.txt']);
    expect(result.unreadable).toBe(1);
  });
});

describe('collectDropped', () => {
  it('takes entries of every file item (and ignores text items)', async () => {
    const items: DataTransferItemLike[] = [
      { kind: 'string', getAsFile: () => null, webkitGetAsEntry: () => null },
      {
        kind: 'file',
        getAsFile: () => null,
        webkitGetAsEntry: () => dirEntry('/docs', [fileEntry('/docs/a.pdf')]),
      },
      {
        kind: 'file',
        getAsFile: () => new File(['y'], 'b.txt'),
        webkitGetAsEntry: () => fileEntry('/b.txt'),
      },
    ];
    const result = await collectDropped(items, []);
    expect(result.files.map((f) => f.relativePath ?? f.file.name)).toEqual(['docs/a.pdf', 'b.txt']);
  });

  it('falls back to the plain file list without the entries API', async () => {
    const file = new File(['z'], 'plain.txt');
    const result = await collectDropped([{ kind: 'file', getAsFile: () => file }], [file]);
    expect(result.files).toEqual([{ file, relativePath: null }]);
  });
});

describe('collectFromInput', () => {
  it('uses webkitRelativePath when a folder was picked', () => {
    const inFolder = new File(['a'], 'a.txt');
    Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'folder/sub/a.txt' });
    const loose = new File(['b'], 'b.txt');
    expect(collectFromInput([inFolder, loose])).toEqual([
      { file: inFolder, relativePath: 'folder/sub/a.txt' },
      { file: loose, relativePath: null },
    ]);
  });
});
