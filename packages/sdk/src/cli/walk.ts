import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkFileName, checkRelativePath, type FileNameProblem } from '@ferry/core';
import { CliError } from './exit-codes.js';

/** A file to send. */
export interface LocalFile {
  absPath: string;
  /** The file's own name. */
  name: string;
  /** For a file inside a folder: its path from the folder, the folder's own name first ("photos/2024/a.jpg"). */
  relativePath?: string;
  size: number;
  mtimeMs: number;
}

/** A file left out, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** English for each notice of spec §5. */
export function describeProblem(problem: FileNameProblem): string {
  switch (problem.key) {
    case 'uploader:notif_filename_too_long':
      return 'name longer than 255 bytes';
    case 'uploader:notif_invalid_filename':
      return 'invalid file name';
    case 'uploader:notif_file_is_exe':
      return 'executable files (.exe, .msi) are not allowed';
    case 'uploader:notif_file_is_iso':
      return 'disk images (.iso, .udf) are not allowed';
    case 'uploader:notif_file_is_htm':
      return 'HTML files are not allowed';
    case 'uploader:notif_extension_authorized':
      return `only these extensions are allowed: ${(problem.extensions ?? []).join(', ')}`;
  }
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function walkFolder(dir: string, prefix: string, files: LocalFile[], skipped: SkippedFile[]) {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    skipped.push({ path: dir, reason: code === 'EACCES' ? 'permission denied' : `cannot be read (${code})` });
    return;
  }
  for (const entry of entries.sort(byName)) {
    const absPath = path.join(dir, entry.name);
    const relativePath = `${prefix}/${entry.name}`;
    if (entry.isSymbolicLink()) {
      skipped.push({ path: absPath, reason: 'symbolic link (not followed)' });
    } else if (entry.isDirectory()) {
      await walkFolder(absPath, relativePath, files, skipped);
    } else if (!entry.isFile()) {
      skipped.push({ path: absPath, reason: 'not a regular file' });
    } else {
      const problem = checkFileName(entry.name) ?? checkRelativePath(relativePath);
      if (problem) {
        skipped.push({ path: absPath, reason: describeProblem(problem) });
        continue;
      }
      const info = await lstat(absPath);
      files.push({ absPath, name: entry.name, relativePath, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
}

/**
 * One warning per empty (0-byte) file, as the web app gives: it is sent all the same (one may be meant), but
 * never without a word — an empty file is more often a placeholder or a failed export.
 */
export function emptyFileWarnings(files: readonly LocalFile[]): string[] {
  return files
    .filter((f) => f.size === 0)
    .map(
      (f) =>
        `ferry: ${f.relativePath ?? f.name} is empty (0 bytes); it is sent empty (leave it out to drop it)`,
    );
}

/**
 * Lists what `ferry send PATH...` sends, like a browser drop: a file as itself, a folder recursively with its own
 * name as the first segment of every relative path. Symbolic links inside folders are not followed (one named
 * on the command line is). Files that spec §5 rejects are skipped and reported; the rest are kept.
 */
export async function collectFiles(
  inputs: readonly string[],
): Promise<{ files: LocalFile[]; skipped: SkippedFile[] }> {
  const files: LocalFile[] = [];
  const skipped: SkippedFile[] = [];
  for (const input of inputs) {
    const absPath = path.resolve(input);
    const info = await stat(absPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new CliError(`${input}: no such file or directory`);
      throw error;
    });
    if (info.isDirectory()) {
      await walkFolder(absPath, path.basename(absPath) || 'root', files, skipped);
    } else if (info.isFile()) {
      const name = path.basename(absPath);
      const problem = checkFileName(name);
      if (problem) skipped.push({ path: input, reason: describeProblem(problem) });
      else files.push({ absPath, name, size: info.size, mtimeMs: info.mtimeMs });
    } else {
      skipped.push({ path: input, reason: 'not a regular file' });
    }
  }
  const unique = new Map<string, LocalFile>();
  for (const file of files) if (!unique.has(file.absPath)) unique.set(file.absPath, file);
  return { files: [...unique.values()], skipped };
}
