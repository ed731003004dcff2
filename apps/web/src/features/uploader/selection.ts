import {
  checkRelativePath,
  type FileNameCheckOptions,
  type FileNameProblem,
  GB,
  type LimitError,
  type PlanLimits,
  partitionFiles,
} from '@ferry/core';
import type { IncomingFile } from './collect-files';

/** A file in the uploader's list. */
export interface SelectedFile {
  /** Stable key for React and removal: path (or name), size and last modification. */
  key: string;
  file: File;
  name: string;
  relativePath: string | null;
  size: number;
}

export interface RejectedFile {
  name: string;
  problem: FileNameProblem;
}

export interface SelectionLimits {
  files: number;
  uploadSizeBytes: number;
}

export function selectionLimitsOf(limits: Pick<PlanLimits, 'files' | 'uploadSizeGB'>): SelectionLimits {
  return { files: limits.files, uploadSizeBytes: limits.uploadSizeGB * GB };
}

export interface AddFilesResult {
  files: SelectedFile[];
  /** Files skipped for their name (spec §5), each with its notice. */
  rejected: RejectedFile[];
  /** Set when the whole addition was refused because it would break a plan limit. */
  limit: LimitError | null;
  /** Files already in the list (same path, size and date), not added twice. */
  duplicates: number;
}

export function selectedFileKey(
  name: string,
  relativePath: string | null,
  size: number,
  modified: number,
): string {
  return `${relativePath ?? name}\u0000${size}\u0000${modified}`;
}

export function totalSize(files: readonly { size: number }[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}

/**
 * Adds picked files to the list. Names are checked by spec §5 (partitionFiles, then checkRelativePath for files
 * inside folders): rejected files are skipped and the rest kept. If what is left would exceed the plan's file
 * count or total size, none of it is added and the broken limit is returned.
 */
export function addFiles(
  current: readonly SelectedFile[],
  incoming: readonly IncomingFile[],
  limits: SelectionLimits,
  nameOptions: FileNameCheckOptions = {},
): AddFilesResult {
  const named = incoming.map((item) => ({ ...item, name: item.file.name }));
  const { accepted, rejected } = partitionFiles(named, nameOptions);
  const result: AddFilesResult = {
    files: [...current],
    rejected: rejected.map(({ file, problem }) => ({ name: file.relativePath ?? file.name, problem })),
    limit: null,
    duplicates: 0,
  };
  const known = new Set(current.map((f) => f.key));
  const additions: SelectedFile[] = [];
  for (const item of accepted) {
    const pathProblem = item.relativePath === null ? null : checkRelativePath(item.relativePath);
    if (pathProblem) {
      result.rejected.push({ name: item.relativePath ?? item.name, problem: pathProblem });
      continue;
    }
    const key = selectedFileKey(item.name, item.relativePath, item.file.size, item.file.lastModified);
    if (known.has(key)) {
      result.duplicates++;
      continue;
    }
    known.add(key);
    additions.push({
      key,
      file: item.file,
      name: item.name,
      relativePath: item.relativePath,
      size: item.file.size,
    });
  }
  const count = current.length + additions.length;
  if (count > limits.files) {
    result.limit = { limit: 'files', max: limits.files, actual: count };
    return result;
  }
  const bytes = totalSize(current) + totalSize(additions);
  if (bytes > limits.uploadSizeBytes) {
    result.limit = { limit: 'uploadSize', max: limits.uploadSizeBytes, actual: bytes };
    return result;
  }
  result.files.push(...additions);
  return result;
}

export function removeFile(current: readonly SelectedFile[], key: string): SelectedFile[] {
  return current.filter((f) => f.key !== key);
}

export function removeFiles(current: readonly SelectedFile[], keys: readonly string[]): SelectedFile[] {
  const gone = new Set(keys);
  return current.filter((f) => !gone.has(f.key));
}

/** The folder part of a relative path ("photos/2024/a.jpg" → "photos/2024/"), or '' for a loose file. */
export function folderOf(relativePath: string | null): string {
  if (!relativePath) return '';
  const slash = relativePath.lastIndexOf('/');
  return slash < 0 ? '' : relativePath.slice(0, slash + 1);
}
