import { FILE_NAME_MAX_BYTES } from '../constants.js';
import { hasLayoutControlChars } from './text.js';

/** A rejected file with the i18n key of the notice that explains why (spec §5). */
export interface FileNameProblem {
  key:
    | 'uploader:notif_filename_too_long'
    | 'uploader:notif_invalid_filename'
    | 'uploader:notif_file_is_exe'
    | 'uploader:notif_file_is_iso'
    | 'uploader:notif_file_is_htm'
    | 'uploader:notif_extension_authorized';
  /** For notif_extension_authorized: the allowed list, as shown to the user. */
  extensions?: string[];
}

export interface FileNameCheckOptions {
  /** Skips the exe/iso/htm bans (spec §5 "unless the check is bypassed"). */
  bypassExtensionBans?: boolean;
  /** When non-empty, the name must end in one of these (case-insensitive). */
  allowedExtensions?: readonly string[];
}

const BANNED: ReadonlyArray<[RegExp, FileNameProblem['key']]> = [
  [/\.(exe|msi)$/i, 'uploader:notif_file_is_exe'],
  [/\.(iso|udf)$/i, 'uploader:notif_file_is_iso'],
  [/\.(htm|html|shtml|sshtml)$/i, 'uploader:notif_file_is_htm'],
];

// Path separators (\ and /) never belong in one file name: a file's own name is a single segment, its folders
// travel in relativePath (checked by checkRelativePath). A colon is a drive letter or an NTFS alternate stream on
// Windows, and ZIP forbids it in entry names. Control characters, line separators and bidirectional controls
// (which show "report\u202Efdp.exe" as "reportexe.pdf") are refused by hasLayoutControlChars.
const INVALID_CHARS = /[\\/:]/u;

export function utf8ByteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

function normaliseExtension(ext: string): string {
  const e = ext.trim().toLowerCase();
  return e.startsWith('.') ? e : `.${e}`;
}

/** Checks one file name by the rules of spec §5; returns null when it is accepted. */
export function checkFileName(name: string, options: FileNameCheckOptions = {}): FileNameProblem | null {
  if (utf8ByteLength(name) > FILE_NAME_MAX_BYTES) return { key: 'uploader:notif_filename_too_long' };
  if (name.startsWith('/')) return { key: 'uploader:notif_invalid_filename' };
  if (
    name.length === 0 ||
    name.trim().length === 0 ||
    INVALID_CHARS.test(name) ||
    hasLayoutControlChars(name) ||
    name === '.' ||
    name === '..'
  ) {
    return { key: 'uploader:notif_invalid_filename' };
  }
  if (!options.bypassExtensionBans) {
    // Windows and browsers drop trailing dots and spaces when saving: "setup.exe." lands as setup.exe.
    const saved = name.replace(/[. ]+$/, '');
    for (const [pattern, key] of BANNED) if (pattern.test(saved)) return { key };
  }
  const allowed = (options.allowedExtensions ?? []).filter((e) => e.trim() !== '');
  if (allowed.length > 0) {
    const lower = name.toLowerCase();
    if (!allowed.some((ext) => lower.endsWith(normaliseExtension(ext)))) {
      return { key: 'uploader:notif_extension_authorized', extensions: [...allowed] };
    }
  }
  return null;
}

/**
 * Checks the relative path of a file dropped inside a folder ("photos/2024/a.jpg"): forward slashes only,
 * no empty, "." or ".." segment, every segment a valid name, the whole at most 4096 bytes.
 */
export function checkRelativePath(path: string): FileNameProblem | null {
  if (path.startsWith('/')) return { key: 'uploader:notif_invalid_filename' };
  if (utf8ByteLength(path) > 4096) return { key: 'uploader:notif_filename_too_long' };
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      return { key: 'uploader:notif_invalid_filename' };
    const problem = checkFileName(segment, { bypassExtensionBans: true });
    if (problem) return problem;
  }
  return null;
}

/** Splits a list into accepted files and rejected ones; rejected files are skipped, the rest kept (§5). */
export function partitionFiles<T extends { name: string }>(
  files: readonly T[],
  options: FileNameCheckOptions = {},
): { accepted: T[]; rejected: Array<{ file: T; problem: FileNameProblem }> } {
  const accepted: T[] = [];
  const rejected: Array<{ file: T; problem: FileNameProblem }> = [];
  for (const file of files) {
    const problem = checkFileName(file.name, options);
    if (problem) rejected.push({ file, problem });
    else accepted.push(file);
  }
  return { accepted, rejected };
}
