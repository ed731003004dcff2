import { describe, expect, it } from 'vitest';
import { FILE_NAME_MAX_BYTES } from '../constants.js';
import { checkFileName, checkRelativePath, partitionFiles, utf8ByteLength } from './file-name.js';

const TOO_LONG = { key: 'uploader:notif_filename_too_long' };
const INVALID = { key: 'uploader:notif_invalid_filename' };
const EXE = { key: 'uploader:notif_file_is_exe' };
const ISO = { key: 'uploader:notif_file_is_iso' };
const HTM = { key: 'uploader:notif_file_is_htm' };

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('abc')).toBe(3);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('€')).toBe(3);
    expect(utf8ByteLength('😀')).toBe(4);
  });
});

describe('checkFileName: length (spec §5, 255 bytes)', () => {
  it('uses a limit of 255 bytes', () => {
    expect(FILE_NAME_MAX_BYTES).toBe(255);
  });

  it('accepts an ASCII name of exactly 255 bytes and rejects 256', () => {
    const ok = `${'a'.repeat(251)}.txt`;
    expect(ok).toHaveLength(255);
    expect(checkFileName(ok)).toBeNull();
    expect(checkFileName(`a${ok}`)).toEqual(TOO_LONG);
  });

  it('counts UTF-8 bytes, not characters: a 255-byte multi-byte name is accepted', () => {
    const name = `${'é'.repeat(125)}a.txt`; // 250 + 1 + 4 = 255 bytes, 130 characters
    expect(utf8ByteLength(name)).toBe(255);
    expect(checkFileName(name)).toBeNull();

    const emoji = `${'😀'.repeat(62)}abc.txt`; // 248 + 3 + 4 = 255 bytes
    expect(utf8ByteLength(emoji)).toBe(255);
    expect(checkFileName(emoji)).toBeNull();
  });

  it('counts UTF-8 bytes, not characters: 256 bytes in only 128 characters is rejected', () => {
    const name = 'é'.repeat(128);
    expect(name).toHaveLength(128);
    expect(utf8ByteLength(name)).toBe(256);
    expect(checkFileName(name)).toEqual(TOO_LONG);

    const emoji = `${'😀'.repeat(63)}.txt`; // 252 + 4 = 256 bytes
    expect(checkFileName(emoji)).toEqual(TOO_LONG);
  });

  it('reports an over-long name as too long even when it would also be banned', () => {
    expect(checkFileName(`${'a'.repeat(300)}.exe`)).toEqual(TOO_LONG);
  });
});

describe('checkFileName: invalid names', () => {
  it('rejects a name starting with /', () => {
    expect(checkFileName('/etc/passwd')).toEqual(INVALID);
    expect(checkFileName('/a.txt')).toEqual(INVALID);
  });

  it('rejects empty, blank, "." and ".." names', () => {
    for (const name of ['', ' ', '   ', '.', '..'])
      expect(checkFileName(name), JSON.stringify(name)).toEqual(INVALID);
  });

  it('rejects NUL and other control characters', () => {
    for (const c of ['\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f']) {
      expect(checkFileName(`a${c}b.txt`), JSON.stringify(c)).toEqual(INVALID);
    }
  });

  it('rejects bidirectional controls, which show a name reordered (U+202A–202E, U+2066–2069)', () => {
    const bidi = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of bidi) {
      expect(checkFileName(`invoice${c}fdp.exe`, { bypassExtensionBans: true }), JSON.stringify(c)).toEqual(
        INVALID,
      );
      expect(checkFileName(`report${c}.pdf`), JSON.stringify(c)).toEqual(INVALID);
    }
    expect(checkRelativePath('photos/a\u202Egpj.exe')).toEqual(INVALID);
    expect(checkRelativePath('pho\u2067tos/a.jpg')).toEqual(INVALID);
  });

  it('rejects Unicode line and paragraph separators (U+2028, U+2029)', () => {
    expect(checkFileName('a\u2028b.txt')).toEqual(INVALID);
    expect(checkFileName('a\u2029b.txt')).toEqual(INVALID);
  });

  it('keeps right-to-left names and the marks that order them (U+200E, U+200F)', () => {
    expect(checkFileName('تقرير.pdf')).toBeNull();
    expect(checkFileName('שלום\u200F.txt')).toBeNull();
  });

  it('rejects path separators inside a single name (backslash and slash)', () => {
    expect(checkFileName('dir\\file.txt')).toEqual(INVALID);
    expect(checkFileName('..\\..\\evil.txt')).toEqual(INVALID);
    expect(checkFileName('dir/file.txt')).toEqual(INVALID);
    expect(checkFileName('../../evil.txt')).toEqual(INVALID);
  });

  it('accepts ordinary names, including spaces, unicode, dots and dotfiles', () => {
    for (const name of [
      'a.txt',
      'report final (2).pdf',
      'Übersicht 2024.xlsx',
      '日本語のファイル.docx',
      '😀.png',
      '.bashrc',
      'archive.tar.gz',
      'no_extension',
      '...hidden',
      'a..b',
    ]) {
      expect(checkFileName(name), name).toBeNull();
    }
  });
});

describe('checkFileName: banned extensions (spec §5)', () => {
  it.each([
    ['setup.exe', EXE],
    ['installer.msi', EXE],
    ['disk.iso', ISO],
    ['disk.udf', ISO],
    ['page.htm', HTM],
    ['page.html', HTM],
    ['page.shtml', HTM],
    ['page.sshtml', HTM],
  ])('rejects %s', (name, problem) => {
    expect(checkFileName(name)).toEqual(problem);
  });

  it.each([
    ['SETUP.EXE', EXE],
    ['Setup.Exe', EXE],
    ['installer.MSI', EXE],
    ['DISK.ISO', ISO],
    ['disk.Udf', ISO],
    ['PAGE.HTM', HTM],
    ['page.HTML', HTM],
    ['page.ShTmL', HTM],
    ['page.SSHTML', HTM],
  ])('rejects %s case-insensitively', (name, problem) => {
    expect(checkFileName(name)).toEqual(problem);
  });

  it('only looks at the final extension', () => {
    for (const name of [
      'setup.exe.txt',
      'my.iso.zip',
      'page.html.pdf',
      'exe',
      'myexe',
      'file_exe',
      'html.txt',
    ]) {
      expect(checkFileName(name), name).toBeNull();
    }
  });

  it('does not ban look-alike extensions', () => {
    for (const name of ['a.exec', 'a.msix', 'a.isox', 'a.xhtml', 'a.shtm', 'a.ht']) {
      expect(checkFileName(name), name).toBeNull();
    }
  });

  it('skips the bans when bypassed', () => {
    for (const name of [
      'setup.exe',
      'a.MSI',
      'disk.iso',
      'disk.udf',
      'p.htm',
      'p.html',
      'p.shtml',
      'p.sshtml',
    ]) {
      expect(checkFileName(name, { bypassExtensionBans: true }), name).toBeNull();
    }
  });

  it('still applies length and validity checks when bans are bypassed', () => {
    expect(checkFileName(`${'a'.repeat(256)}.exe`, { bypassExtensionBans: true })).toEqual(TOO_LONG);
    expect(checkFileName('/setup.exe', { bypassExtensionBans: true })).toEqual(INVALID);
    expect(checkFileName('a\u0000.exe', { bypassExtensionBans: true })).toEqual(INVALID);
  });

  it('does not bypass by default (bypassExtensionBans false or absent)', () => {
    expect(checkFileName('setup.exe', {})).toEqual(EXE);
    expect(checkFileName('setup.exe', { bypassExtensionBans: false })).toEqual(EXE);
  });
});

describe('checkFileName: allowed-extension list (spec §5)', () => {
  const list = ['.PDF', 'docx', ' jpg '];

  it('accepts names ending in a listed extension, case-insensitively, with or without a dot in the list', () => {
    for (const name of ['a.pdf', 'A.PDF', 'report.Pdf', 'b.docx', 'B.DOCX', 'c.jpg', 'c.JPG', 'x.tar.pdf']) {
      expect(checkFileName(name, { allowedExtensions: list }), name).toBeNull();
    }
  });

  it('rejects other names with notif_extension_authorized and the list', () => {
    for (const name of ['a.txt', 'a.pdf.txt', 'a.doc', 'no_extension', 'a.jpeg']) {
      expect(checkFileName(name, { allowedExtensions: list }), name).toEqual({
        key: 'uploader:notif_extension_authorized',
        extensions: list,
      });
    }
  });

  it('requires a real extension, not just a matching suffix', () => {
    expect(checkFileName('filepdf', { allowedExtensions: ['pdf'] })?.key).toBe(
      'uploader:notif_extension_authorized',
    );
    expect(checkFileName('file.pdf', { allowedExtensions: ['pdf'] })).toBeNull();
  });

  it('supports multi-part extensions', () => {
    expect(checkFileName('backup.tar.gz', { allowedExtensions: ['tar.gz'] })).toBeNull();
    expect(checkFileName('backup.gz', { allowedExtensions: ['tar.gz'] })?.key).toBe(
      'uploader:notif_extension_authorized',
    );
  });

  it('returns a copy of the list, not the caller’s array', () => {
    const allowed = ['pdf'];
    const problem = checkFileName('a.txt', { allowedExtensions: allowed });
    expect(problem?.extensions).toEqual(['pdf']);
    expect(problem?.extensions).not.toBe(allowed);
  });

  it('does not restrict anything when the list is empty or only blank', () => {
    expect(checkFileName('a.txt', { allowedExtensions: [] })).toBeNull();
    expect(checkFileName('a.txt', { allowedExtensions: ['', '  '] })).toBeNull();
  });

  it('ignores blank entries in a non-empty list', () => {
    expect(checkFileName('a.txt', { allowedExtensions: ['', 'pdf'] })).toEqual({
      key: 'uploader:notif_extension_authorized',
      extensions: ['pdf'],
    });
  });

  it('applies the bans before the list, and the list even when bans are bypassed', () => {
    expect(checkFileName('setup.exe', { allowedExtensions: ['exe'] })).toEqual(EXE);
    expect(checkFileName('setup.exe', { allowedExtensions: ['exe'], bypassExtensionBans: true })).toBeNull();
    expect(checkFileName('setup.exe', { allowedExtensions: ['pdf'], bypassExtensionBans: true })).toEqual({
      key: 'uploader:notif_extension_authorized',
      extensions: ['pdf'],
    });
  });
});

describe('checkRelativePath', () => {
  it('accepts valid relative paths, nested or not', () => {
    for (const path of [
      'a.jpg',
      'photos/a.jpg',
      'photos/2024/summer/a.jpg',
      'My Docs/Übersicht/r.pdf',
      '.git/config',
    ]) {
      expect(checkRelativePath(path), path).toBeNull();
    }
  });

  it('rejects absolute paths', () => {
    expect(checkRelativePath('/photos/a.jpg')).toEqual(INVALID);
    expect(checkRelativePath('/')).toEqual(INVALID);
  });

  it('rejects . and .. segments', () => {
    for (const path of [
      '..',
      '../a.jpg',
      'photos/../../a.jpg',
      'photos/..',
      './a.jpg',
      'photos/./a.jpg',
      '.',
    ]) {
      expect(checkRelativePath(path), path).toEqual(INVALID);
    }
  });

  it('rejects empty segments (empty path, double or trailing slash)', () => {
    for (const path of ['', 'photos//a.jpg', 'photos/', 'photos/a.jpg/']) {
      expect(checkRelativePath(path), JSON.stringify(path)).toEqual(INVALID);
    }
  });

  it('rejects backslashes and control characters in any segment', () => {
    expect(checkRelativePath('photos\\a.jpg')).toEqual(INVALID);
    expect(checkRelativePath('..\\a.jpg')).toEqual(INVALID);
    expect(checkRelativePath('pho\u0000tos/a.jpg')).toEqual(INVALID);
    expect(checkRelativePath('photos/a\n.jpg')).toEqual(INVALID);
  });

  it('rejects a segment longer than 255 bytes', () => {
    expect(checkRelativePath(`${'d'.repeat(255)}/a.jpg`)).toBeNull();
    expect(checkRelativePath(`${'d'.repeat(256)}/a.jpg`)).toEqual(TOO_LONG);
    expect(checkRelativePath(`photos/${'é'.repeat(128)}`)).toEqual(TOO_LONG);
  });

  it('rejects a whole path longer than 4096 bytes', () => {
    const segment = 'd'.repeat(200);
    const within = Array.from({ length: 20 }, () => segment).join('/'); // 20 * 200 + 19 = 4019 bytes
    expect(checkRelativePath(within)).toBeNull();
    const beyond = Array.from({ length: 21 }, () => segment).join('/'); // 4220 bytes
    expect(checkRelativePath(beyond)).toEqual(TOO_LONG);
  });

  it('leaves the extension bans to checkFileName on the file name', () => {
    expect(checkRelativePath('folder/setup.exe')).toBeNull();
    expect(checkRelativePath('site/index.html')).toBeNull();
  });
});

describe('partitionFiles (spec §5: rejected files skipped, the rest kept)', () => {
  it('keeps accepted files in order and lists rejected ones with their problem', () => {
    const files = [
      { name: 'a.txt', id: 1 },
      { name: 'setup.exe', id: 2 },
      { name: 'b.pdf', id: 3 },
      { name: 'disk.iso', id: 4 },
      { name: '/abs.txt', id: 5 },
      { name: 'c.jpg', id: 6 },
      { name: 'page.html', id: 7 },
      { name: `${'x'.repeat(256)}`, id: 8 },
    ];
    const { accepted, rejected } = partitionFiles(files);
    expect(accepted.map((f) => f.id)).toEqual([1, 3, 6]);
    expect(rejected).toEqual([
      { file: files[1], problem: EXE },
      { file: files[3], problem: ISO },
      { file: files[4], problem: INVALID },
      { file: files[6], problem: HTM },
      { file: files[7], problem: TOO_LONG },
    ]);
  });

  it('returns the same file objects it was given', () => {
    const files = [{ name: 'a.txt' }, { name: 'b.exe' }];
    const { accepted, rejected } = partitionFiles(files);
    expect(accepted[0]).toBe(files[0]);
    expect(rejected[0]?.file).toBe(files[1]);
  });

  it('passes the options on to every check', () => {
    const files = [{ name: 'a.pdf' }, { name: 'b.exe' }, { name: 'c.txt' }];
    expect(partitionFiles(files, { bypassExtensionBans: true }).accepted).toEqual(files);
    const restricted = partitionFiles(files, { allowedExtensions: ['pdf'] });
    expect(restricted.accepted).toEqual([{ name: 'a.pdf' }]);
    expect(restricted.rejected).toEqual([
      { file: { name: 'b.exe' }, problem: EXE },
      {
        file: { name: 'c.txt' },
        problem: { key: 'uploader:notif_extension_authorized', extensions: ['pdf'] },
      },
    ]);
  });

  it('handles all-accepted, all-rejected and empty lists', () => {
    expect(partitionFiles([])).toEqual({ accepted: [], rejected: [] });
    expect(partitionFiles([{ name: 'a' }, { name: 'b' }])).toEqual({
      accepted: [{ name: 'a' }, { name: 'b' }],
      rejected: [],
    });
    const bad = partitionFiles([{ name: 'a.exe' }, { name: 'b.msi' }]);
    expect(bad.accepted).toEqual([]);
    expect(bad.rejected).toHaveLength(2);
  });

  it('does not modify the input list', () => {
    const files = [{ name: 'a.exe' }, { name: 'b.txt' }];
    const copy = structuredClone(files);
    partitionFiles(files);
    expect(files).toEqual(copy);
  });
});

describe('names that would turn into something else when saved', () => {
  it('applies the extension bans after the trailing dots and spaces Windows drops', () => {
    expect(checkFileName('setup.exe.')?.key).toBe('uploader:notif_file_is_exe');
    expect(checkFileName('setup.exe  ')?.key).toBe('uploader:notif_file_is_exe');
    expect(checkFileName('page.html. .')?.key).toBe('uploader:notif_file_is_htm');
    expect(checkFileName('notes.txt.')).toBeNull();
  });

  it('refuses colons (drive letters, NTFS streams) and C1 control characters', () => {
    expect(checkFileName('a:b.txt')?.key).toBe('uploader:notif_invalid_filename');
    expect(checkRelativePath('C:/Windows/x.txt')?.key).toBe('uploader:notif_invalid_filename');
    expect(checkFileName('esc\u009b[31m.txt')?.key).toBe('uploader:notif_invalid_filename');
    expect(checkFileName('next\u0085line.txt')?.key).toBe('uploader:notif_invalid_filename');
  });
});
