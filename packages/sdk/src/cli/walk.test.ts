import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from './exit-codes.js';
import { collectFiles, emptyFileWarnings } from './walk.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ferry-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function touch(relative: string, content = 'x'): Promise<string> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

describe('collectFiles', () => {
  it('sends a loose file as itself, without a relative path', async () => {
    const file = await touch('report.pdf', 'hello');
    const { files, skipped } = await collectFiles([file]);
    expect(skipped).toEqual([]);
    expect(files).toEqual([
      { absPath: file, name: 'report.pdf', size: 5, mtimeMs: expect.any(Number) as number },
    ]);
  });

  it('walks a folder recursively with the folder name as the first segment, in a stable order', async () => {
    await touch('photos/b.jpg');
    await touch('photos/a.jpg', 'aa');
    await touch('photos/2024/summer/c.png');
    await mkdir(path.join(dir, 'photos/empty'));
    const { files } = await collectFiles([path.join(dir, 'photos') + path.sep]);
    expect(files.map((f) => f.relativePath)).toEqual([
      'photos/2024/summer/c.png',
      'photos/a.jpg',
      'photos/b.jpg',
    ]);
    expect(files[1]).toMatchObject({ name: 'a.jpg', size: 2, absPath: path.join(dir, 'photos/a.jpg') });
  });

  it('skips files refused by spec §5 with a reason and keeps the rest', async () => {
    await touch('stuff/setup.exe');
    await touch('stuff/page.HTML');
    await touch('stuff/disk.iso');
    await touch('stuff/ok.txt');
    await touch('stuff/back\\slash.txt'); // a 256-byte name cannot exist on Linux; a backslash can
    await touch('stuff/bell\u0007.txt');
    const loose = await touch('tool.msi');
    const { files, skipped } = await collectFiles([path.join(dir, 'stuff'), loose]);
    expect(files.map((f) => f.relativePath)).toEqual(['stuff/ok.txt']);
    const reasons = Object.fromEntries(skipped.map((s) => [path.basename(s.path), s.reason]));
    expect(reasons['setup.exe']).toMatch(/executable/);
    expect(reasons['page.HTML']).toMatch(/HTML/);
    expect(reasons['disk.iso']).toMatch(/disk images/);
    expect(reasons['back\\slash.txt']).toBe('invalid file name');
    expect(reasons['bell\u0007.txt']).toBe('invalid file name');
    expect(reasons['tool.msi']).toMatch(/executable/);
  });

  it('does not follow symbolic links inside folders, but follows one named on the command line', async () => {
    const target = await touch('elsewhere/secret.txt');
    await touch('shared/real.txt');
    await symlink(target, path.join(dir, 'shared/link.txt'));
    await symlink(path.join(dir, 'elsewhere'), path.join(dir, 'shared/linkdir'));
    await symlink(target, path.join(dir, 'top-link.txt'));
    const { files, skipped } = await collectFiles([path.join(dir, 'shared'), path.join(dir, 'top-link.txt')]);
    expect(files.map((f) => f.relativePath ?? f.name)).toEqual(['shared/real.txt', 'top-link.txt']);
    expect(skipped.map((s) => path.basename(s.path)).sort()).toEqual(['link.txt', 'linkdir']);
    expect(skipped[0]?.reason).toMatch(/symbolic link/);
  });

  it('lists a file given twice once', async () => {
    const file = await touch('a.txt');
    const { files } = await collectFiles([file, path.join(dir, '.', 'a.txt')]);
    expect(files).toHaveLength(1);
  });

  it('fails clearly on a missing path', async () => {
    await expect(collectFiles([path.join(dir, 'nope')])).rejects.toThrow(CliError);
    await expect(collectFiles([path.join(dir, 'nope')])).rejects.toThrow('no such file or directory');
  });
});

describe('emptyFileWarnings', () => {
  it('names each empty file, loose or inside a folder, and nothing else', async () => {
    await mkdir(path.join(dir, 'album'));
    await writeFile(path.join(dir, 'album', 'blank.txt'), '');
    await writeFile(path.join(dir, 'album', 'photo.jpg'), 'x');
    await writeFile(path.join(dir, 'empty.csv'), '');
    const { files } = await collectFiles([path.join(dir, 'album'), path.join(dir, 'empty.csv')]);
    expect(emptyFileWarnings(files)).toEqual([
      'ferry: album/blank.txt is empty (0 bytes); it is sent empty (leave it out to drop it)',
      'ferry: empty.csv is empty (0 bytes); it is sent empty (leave it out to drop it)',
    ]);
  });
});
