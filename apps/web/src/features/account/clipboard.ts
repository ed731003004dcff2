import { openThroughHiddenLink } from '../../lib/hidden-download';

/**
 * Copies `text`; where the Clipboard API is missing or refused (http, an old browser), selects `fallback`
 * (an input or textarea holding the same text) and copies that. False when neither worked.
 */
export async function copyText(
  text: string,
  fallback: HTMLInputElement | HTMLTextAreaElement | null,
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!fallback) return false;
    fallback.select();
    return document.execCommand('copy');
  }
}

/** Saves `text` as a file through the browser's download manager (a blob: URL, never a data: URL). */
export function saveTextFile(text: string, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  openThroughHiddenLink(url, fileName, doc);
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
