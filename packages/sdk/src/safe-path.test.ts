import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSafeOutputPath, UnsafePathError } from './safe-path.js';

const out = path.resolve('/tmp/out');

describe('resolveSafeOutputPath', () => {
  it('keeps relative paths inside the output folder', () => {
    expect(resolveSafeOutputPath(out, 'a.txt')).toBe(path.join(out, 'a.txt'));
    expect(resolveSafeOutputPath(out, 'photos/2024/a.jpg')).toBe(path.join(out, 'photos', '2024', 'a.jpg'));
    expect(resolveSafeOutputPath(out, '..hidden/..a')).toBe(path.join(out, '..hidden', '..a'));
  });

  it.each([
    ['../etc/passwd', '".." segment'],
    ['a/../../b', '".." segment'],
    ['/etc/passwd', 'absolute path'],
    ['a\\..\\b', 'backslash'],
    ['C:/Windows/x', 'drive letter'],
    ['a//b', '"" segment'],
    ['./a', '"." segment'],
    ['a/', '"" segment'],
    ['', 'empty path'],
    ['a\u0000b', 'control character'],
  ])('refuses %j (%s)', (relative, reason) => {
    expect(() => resolveSafeOutputPath(out, relative)).toThrow(UnsafePathError);
    expect(() => resolveSafeOutputPath(out, relative)).toThrow(reason);
  });

  it('works with a relative output folder', () => {
    expect(resolveSafeOutputPath('downloads', 'x/y')).toBe(path.resolve('downloads', 'x', 'y'));
  });
});
