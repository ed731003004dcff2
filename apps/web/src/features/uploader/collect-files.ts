/** A file picked by the user, with its path inside a picked or dropped folder. */
export interface IncomingFile {
  file: File;
  /** "photos/2024/a.jpg" for a file inside a folder; null for a loose file. */
  relativePath: string | null;
}

/** The parts of the File and Directory Entries API that walking a dropped folder uses. */
export interface EntryLike {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  readonly fullPath: string;
}
export interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}
export interface DirectoryReaderLike {
  readEntries(success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void): void;
}
export interface DirectoryEntryLike extends EntryLike {
  createReader(): DirectoryReaderLike;
}

export interface DataTransferItemLike {
  readonly kind: string;
  getAsFile(): File | null;
  webkitGetAsEntry?: () => EntryLike | null;
}

function isFileEntry(entry: EntryLike): entry is FileEntryLike {
  return entry.isFile && typeof (entry as FileEntryLike).file === 'function';
}

function isDirectoryEntry(entry: EntryLike): entry is DirectoryEntryLike {
  return entry.isDirectory && typeof (entry as DirectoryEntryLike).createReader === 'function';
}

function readFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** readEntries answers in batches (100 at a time in Chromium) until it answers an empty one. */
async function readAllEntries(directory: DirectoryEntryLike): Promise<EntryLike[]> {
  const reader = directory.createReader();
  const all: EntryLike[] = [];
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/** "/photos/2024/a.jpg" → "photos/2024/a.jpg". */
function pathOf(entry: EntryLike): string {
  const path = entry.fullPath.replace(/^\/+/, '');
  return path === '' ? entry.name : path;
}

export interface WalkResult {
  files: IncomingFile[];
  /** Entries that could not be read (permissions, vanished files); they are skipped. */
  unreadable: number;
}

/**
 * Walks dropped entries depth-first. Files dropped on their own get no relative path; files found inside a
 * dropped folder keep their path from that folder ("folder/sub/file.txt"). Empty folders give nothing.
 */
export async function walkEntries(entries: readonly EntryLike[]): Promise<WalkResult> {
  const result: WalkResult = { files: [], unreadable: 0 };
  async function visit(entry: EntryLike, insideFolder: boolean): Promise<void> {
    try {
      if (isFileEntry(entry)) {
        const file = await readFile(entry);
        result.files.push({ file, relativePath: insideFolder ? pathOf(entry) : null });
      } else if (isDirectoryEntry(entry)) {
        for (const child of await readAllEntries(entry)) await visit(child, true);
      }
    } catch {
      result.unreadable++;
    }
  }
  for (const entry of entries) await visit(entry, false);
  return result;
}

/**
 * Files of a drop. The entries must be taken synchronously, inside the drop event, before the browser clears
 * the DataTransfer; without webkitGetAsEntry the plain file list is used (no folders then).
 */
export function collectDropped(
  items: ArrayLike<DataTransferItemLike> | null | undefined,
  files: ArrayLike<File> | null | undefined,
): Promise<WalkResult> {
  const list = Array.from(items ?? []).filter((item) => item.kind === 'file');
  if (list.length === 0 || !list.some((item) => typeof item.webkitGetAsEntry === 'function')) {
    return Promise.resolve({
      files: Array.from(files ?? []).map((file) => ({ file, relativePath: null })),
      unreadable: 0,
    });
  }
  const entries: EntryLike[] = [];
  const loose: File[] = [];
  for (const item of list) {
    const entry = item.webkitGetAsEntry?.() ?? null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  return walkEntries(entries).then((walked) => ({
    files: [...loose.map((file) => ({ file, relativePath: null })), ...walked.files],
    unreadable: walked.unreadable,
  }));
}

/** Files of an <input type="file">, with `webkitdirectory` paths when a folder was picked. */
export function collectFromInput(files: ArrayLike<File> | null | undefined): IncomingFile[] {
  return Array.from(files ?? []).map((file) => ({
    file,
    relativePath: file.webkitRelativePath ? file.webkitRelativePath : null,
  }));
}
