/**
 * An RFC 6266 attachment header: a plain-ASCII fallback name, and the exact name in RFC 5987 form (percent-encoded
 * UTF-8, with the characters encodeURIComponent leaves alone but RFC 5987 does not allow encoded too).
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
