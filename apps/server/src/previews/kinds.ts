import type { PreviewKind } from '@ferry/core';

const BY_EXTENSION: Record<PreviewKind, string[]> = {
  image: ['jpg', 'jpeg', 'jpe', 'png', 'webp', 'gif', 'heic', 'heif', 'avif', 'tif', 'tiff', 'bmp'],
  video: ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'ogv', '3gp', 'mpg', 'mpeg', 'wmv', 'flv', 'ts', 'mts'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'flac', 'm4a', 'aac', 'opus', 'wma', 'aif', 'aiff'],
  pdf: ['pdf'],
  text: [
    'txt',
    'text',
    'md',
    'markdown',
    'csv',
    'tsv',
    'json',
    'log',
    'xml',
    'yaml',
    'yml',
    'ini',
    'toml',
    'cfg',
    'conf',
    'srt',
    'vtt',
    'tex',
    'sql',
    'js',
    'mjs',
    'cjs',
    'jsx',
    'ts',
    'tsx',
    'py',
    'rb',
    'go',
    'rs',
    'java',
    'kt',
    'c',
    'h',
    'cc',
    'cpp',
    'hpp',
    'cs',
    'php',
    'sh',
    'bash',
    'ps1',
    'css',
    'scss',
    'swift',
    'r',
    'lua',
    'pl',
    'dart',
    'scala',
    'vue',
    'svelte',
    'gradle',
    'properties',
    'env',
    'diff',
    'patch',
  ],
};

/**
 * The kind a file is previewed as, by its name. The content decides in the end: a renderer that cannot read
 * it (a .jpg that is no image) gives no preview. `.ts` is TypeScript, not an MPEG transport stream.
 */
export function previewKindOf(fileName: string): PreviewKind | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  const ext = fileName.slice(dot + 1).toLowerCase();
  for (const kind of ['text', 'image', 'video', 'audio', 'pdf'] as const)
    if (BY_EXTENSION[kind].includes(ext)) return kind;
  return null;
}
