import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ForeignSite = Awaited<ReturnType<typeof startForeignSite>>;

/**
 * A plain web server of "another site" (a customer's, embedding Ferry's widget): the pages given, path → HTML,
 * read at each request (so a test may add one later), nothing else. It listens on 127.0.0.1 and is addressed as
 * `localhost`, while Ferry is 127.0.0.1: another origin and another site, as a customer's site would be.
 */
export async function startForeignSite(pages: ReadonlyMap<string, string>) {
  const server = http.createServer((request, response) => {
    const page = pages.get((request.url ?? '/').split('?')[0] ?? '/');
    if (page === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
