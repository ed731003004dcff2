import { vi } from 'vitest';

/** One request the page made, as the mocked server saw it. */
export interface ApiCall {
  method: string;
  /** Path without the query: "/api/auth/signin". */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export type Handler = (call: ApiCall) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers });
}

/** A spec §8 coded error. */
export function coded(status: number, code: string, headers: Record<string, string> = {}): Response {
  return json({ status, error: 'Error', message: code.toLowerCase(), codes: [code] }, status, headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/**
 * Stubs fetch with a tiny server: handlers keyed "METHOD /api/path" (no query). A handler may be a list,
 * used in turn (the last one repeats). Unknown routes answer 404 and are recorded too.
 */
export function mockApi(routes: Record<string, Handler | Handler[]>) {
  const calls: ApiCall[] = [];
  const used = new Map<string, number>();
  const fetchMock = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init.headers as Record<string, string>) ?? {})) {
      headers[k.toLowerCase()] = v;
    }
    const call: ApiCall = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const key = `${call.method} ${call.path}`;
    const route = routes[key];
    if (!route) return coded(404, 'NOT_FOUND');
    if (typeof route === 'function') return route(call);
    const index = used.get(key) ?? 0;
    used.set(key, index + 1);
    const handler = route[Math.min(index, route.length - 1)];
    return handler ? handler(call) : coded(404, 'NOT_FOUND');
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    /** The calls of one route, "METHOD /api/path". */
    to: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key),
    /** Replaces or adds a route while the test runs. */
    set(key: string, handler: Handler | Handler[]) {
      routes[key] = handler;
      used.delete(key);
    },
  };
}
