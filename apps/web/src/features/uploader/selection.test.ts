import { describe, expect, it } from 'vitest';
import type { IncomingFile } from './collect-files';
import { addFiles, folderOf, removeFile, type SelectionLimits } from './selection';

const LIMITS: SelectionLimits = { files: 3, uploadSizeBytes: 100 };

function incoming(name: string, size = 10, relativePath: string | null = null, modified = 1): IncomingFile {
  return { file: new File(['x'.repeat(size)], name, { lastModified: modified }), relativePath };
}

describe('addFiles', () => {
  it('skips rejected names with the spec notice and keeps the rest (§5)', () => {
    const result = addFiles([], [incoming('setup.exe'), incoming('ok.txt'), incoming('page.html')], LIMITS);
    expect(result.files.map((f) => f.name)).toEqual(['ok.txt']);
    expect(result.rejected.map((r) => [r.name, r.problem.key])).toEqual([
      ['setup.exe', 'uploader:notif_file_is_exe'],
      ['page.html', 'uploader:notif_file_is_htm'],
    ]);
  });

  it('checks relative paths of folder files', () => {
    const result = addFiles(
      [],
      [incoming('a.txt', 10, 'dir/../a.txt'), incoming('b.txt', 10, 'dir/b.txt')],
      LIMITS,
    );
    expect(result.files.map((f) => f.relativePath)).toEqual(['dir/b.txt']);
    expect(result.rejected[0]?.problem.key).toBe('uploader:notif_invalid_filename');
  });

  it('passes an allowed-extension list on to the name check', () => {
    const result = addFiles([], [incoming('a.pdf'), incoming('b.txt')], LIMITS, {
      allowedExtensions: ['pdf'],
    });
    expect(result.files.map((f) => f.name)).toEqual(['a.pdf']);
    expect(result.rejected[0]?.problem).toEqual({
      key: 'uploader:notif_extension_authorized',
      extensions: ['pdf'],
    });
  });

  it('refuses an addition that would exceed the file count, keeping the list as it was', () => {
    const first = addFiles([], [incoming('a'), incoming('b')], LIMITS);
    const second = addFiles(first.files, [incoming('c'), incoming('d')], LIMITS);
    expect(second.limit).toEqual({ limit: 'files', max: 3, actual: 4 });
    expect(second.files).toHaveLength(2);
  });

  it('refuses an addition that would exceed the total size', () => {
    const result = addFiles([], [incoming('a', 60), incoming('b', 41)], LIMITS);
    expect(result.limit).toEqual({ limit: 'uploadSize', max: 100, actual: 101 });
    expect(result.files).toEqual([]);
  });

  it('does not add the same file twice', () => {
    const first = addFiles([], [incoming('a', 10, null, 5)], LIMITS);
    const again = addFiles(first.files, [incoming('a', 10, null, 5), incoming('a', 10, 'dir/a', 5)], LIMITS);
    expect(again.duplicates).toBe(1);
    expect(again.files.map((f) => f.relativePath)).toEqual([null, 'dir/a']);
    expect(removeFile(again.files, again.files[0]?.key ?? '').map((f) => f.relativePath)).toEqual(['dir/a']);
  });
});

describe('folderOf', () => {
  it('gives the folder part of a path', () => {
    expect(folderOf('photos/2024/a.jpg')).toBe('photos/2024/');
    expect(folderOf('a.jpg')).toBe('');
    expect(folderOf(null)).toBe('');
  });
});
