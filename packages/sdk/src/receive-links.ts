import { InboxSlug, ReceiveRequestId, type ReceiveTarget, WidgetId } from '@ferry/core';

/** A parsed receive link: where the API lives and the point it names. */
export interface ReceiveLink {
  /** Origin plus any base path in front of `/r`, `/i`, `/widgets` or `/push`, without a trailing slash. */
  server: string;
  target: ReceiveTarget;
}

const PATH = /^(.*?)\/(r|i|widgets)\/([^/]+)\/*$/;

/**
 * Parses a link people upload through: a request `{server}/r/{requestId}` (a personal one adds
 * `?userSecret=…`), an inbox `{server}/i/{slug}`, a widget `{server}/widgets/{widgetId}`, or
 * `{server}/push?to={e-mail or inbox}`. Throws a readable Error when it is none of these.
 */
export function parseReceiveLink(link: string): ReceiveLink {
  const expected =
    'expected https://host/r/<id>, https://host/i/<inbox>, https://host/widgets/<id> or https://host/push?to=<e-mail>';
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    throw new Error(`not an upload link (${expected}): ${link}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`not an http(s) upload link: ${link}`);
  const push = /^(.*?)\/push\/*$/.exec(url.pathname);
  const to = url.searchParams.get('to');
  if (push && to) return { server: `${url.origin}${push[1]}`, target: { kind: 'push', to } };
  const match = PATH.exec(url.pathname);
  if (!match) throw new Error(`not an upload link (${expected}): ${link}`);
  const [, base = '', kind, raw = ''] = match;
  const id = decodeURIComponent(raw);
  const server = `${url.origin}${base}`;
  if (kind === 'r' && ReceiveRequestId.safeParse(id).success) {
    const userSecret = url.searchParams.get('userSecret');
    return { server, target: { kind: 'request', requestId: id, ...(userSecret ? { userSecret } : {}) } };
  }
  if (kind === 'i' && InboxSlug.safeParse(id).success) return { server, target: { kind: 'inbox', slug: id } };
  if (kind === 'widgets' && WidgetId.safeParse(id).success)
    return { server, target: { kind: 'widget', widgetId: id } };
  throw new Error(`not an upload link (${expected}): ${link}`);
}

/** A stable name of the point, for the resume journal's key. */
export function receiveTargetKey(target: ReceiveTarget): string {
  switch (target.kind) {
    case 'request':
      return `r:${target.requestId}:${target.userSecret ?? ''}`;
    case 'inbox':
      return `i:${target.slug.toLowerCase()}`;
    case 'widget':
      return `w:${target.widgetId}`;
    case 'push':
      return `p:${target.to.toLowerCase()}`;
  }
}
