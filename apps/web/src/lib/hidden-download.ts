/**
 * Opens a download URL through a hidden link (spec §7): the browser's own download manager takes over, so the
 * bytes are streamed to disk and never held by the page.
 */
export function openThroughHiddenLink(url: string, fileName: string, doc: Document = document): void {
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  doc.body.appendChild(link);
  link.click();
  link.remove();
}
