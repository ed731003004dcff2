import { describe, expect, it } from 'vitest';
import { previewKindOf } from './kinds.js';

describe('previewKindOf', () => {
  it('names the kind of a file by its extension, whatever its case', () => {
    expect(previewKindOf('IMG_0001.JPG')).toBe('image');
    expect(previewKindOf('photo.heic')).toBe('image');
    expect(previewKindOf('talk.MOV')).toBe('video');
    expect(previewKindOf('song.flac')).toBe('audio');
    expect(previewKindOf('contract.PDF')).toBe('pdf');
    expect(previewKindOf('data.csv')).toBe('text');
    // .ts is TypeScript here, not an MPEG transport stream.
    expect(previewKindOf('main.ts')).toBe('text');
  });

  it('gives no kind to other files or to names without an extension; a dot file is named by its ending', () => {
    expect(previewKindOf('setup.exe')).toBeNull();
    expect(previewKindOf('archive.zip')).toBeNull();
    expect(previewKindOf('README')).toBeNull();
    expect(previewKindOf('page.html')).toBeNull();
    expect(previewKindOf('.env')).toBe('text');
  });
});
