import path from 'node:path';

/** A path from the server that would land outside the output directory (or is not a plain relative path). */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  constructor(
    readonly relativePath: string,
    reason: string,
  ) {
    super(`refusing unsafe path ${JSON.stringify(relativePath)}: ${reason}`);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Resolves a server-given relative path ("photos/2024/a.jpg") inside `outDir`. Refuses absolute paths, drive
 * letters, backslashes, control characters and empty, "." or ".." segments, then checks the result really is
 * inside `outDir`. Returns an absolute path.
 */
export function resolveSafeOutputPath(outDir: string, relativePath: string): string {
  if (relativePath === '') throw new UnsafePathError(relativePath, 'empty path');
  if (relativePath.includes('\\')) throw new UnsafePathError(relativePath, 'backslash');
  if (CONTROL.test(relativePath)) throw new UnsafePathError(relativePath, 'control character');
  if (relativePath.startsWith('/')) throw new UnsafePathError(relativePath, 'absolute path');
  if (/^[A-Za-z]:/.test(relativePath)) throw new UnsafePathError(relativePath, 'drive letter');
  const segments = relativePath.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new UnsafePathError(relativePath, `"${segment}" segment`);
    }
  }
  const root = path.resolve(outDir);
  const resolved = path.resolve(root, ...segments);
  const inside = path.relative(root, resolved);
  if (inside === '' || inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
    throw new UnsafePathError(relativePath, 'escapes the output directory');
  }
  return resolved;
}
