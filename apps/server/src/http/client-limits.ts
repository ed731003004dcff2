import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { AppError } from '../services/app-error.js';
import type { ProxyTrust } from './client-address.js';

/** BODY_IDLE_TIMEOUT_SECONDS and MAX_CONNECTIONS_PER_CLIENT (0: no cap). */
export interface ClientLimitSettings {
  bodyIdleTimeoutMs: number;
  maxConnectionsPerClient: number;
}

/**
 * Keeps one client from holding the server's connections:
 * - a request body that stops arriving for `bodyIdleTimeoutMs` is dropped (the socket is closed), while a body that
 *   keeps moving, however slowly, may take hours: the timer restarts with every chunk. Answers are not timed: a slow
 *   download is the client's business, and Range resumes it.
 * - a client (as TRUST_PROXY says) may hold `maxConnectionsPerClient` connections. A peer that is not a trusted
 *   proxy is counted by its sockets, and its next connection is closed at once; behind a trusted proxy, whose
 *   connections carry many clients, each client is counted by its requests in progress and the next is answered 429.
 *   A proxy's own address is never capped.
 */
export function registerClientLimits(
  app: FastifyInstance,
  trust: ProxyTrust,
  settings: ClientLimitSettings,
  metrics: Metrics,
): void {
  const hit = (limit: 'body_idle' | 'connections') => metrics.clientLimitHits.inc({ limit });
  const cap = settings.maxConnectionsPerClient;
  const sockets = new Counter();
  const requests = new Counter();

  if (cap > 0)
    app.server.on('connection', (socket: Socket) => {
      const peer = socket.remoteAddress;
      if (!peer || trust(peer, 0)) return;
      if (sockets.count(peer) >= cap) {
        hit('connections');
        return void socket.destroy();
      }
      sockets.add(peer);
      socket.once('close', () => sockets.remove(peer));
    });

  app.addHook('onRequest', async (request, reply) => {
    watchBody(request.raw, reply.raw, settings.bodyIdleTimeoutMs, () => hit('body_idle'));
    const peer = request.raw.socket.remoteAddress;
    const client = request.ip;
    if (cap === 0 || !peer || client === peer || !trust(peer, 0)) return;
    if (requests.count(client) >= cap) {
      hit('connections');
      throw new AppError('RATE_LIMITED', 'Too many connections from your address at once.', {
        retryAfterSeconds: 1,
      });
    }
    requests.add(client);
    reply.raw.once('close', () => requests.remove(client));
  });
}

/** Closes the connection when the request's body stops arriving; a request without a body is not timed. */
function watchBody(req: IncomingMessage, res: ServerResponse, idleMs: number, dropped: () => void): void {
  // An injected request (tests, light-my-request) has no real socket to time.
  if (typeof req.socket?.setTimeout !== 'function') return;
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (idleMs <= 0 || req.complete || (!chunked && !(Number(req.headers['content-length']) > 0))) return;
  // Node restarts the socket's idle timer on every chunk. The listener sits on the response so that Node leaves
  // the decision to it: once the whole body is in, the answer is not timed.
  res.setTimeout(idleMs, () => {
    if (req.complete) return void req.socket.setTimeout(0);
    dropped();
    req.socket.destroy();
  });
  req.once('end', () => req.socket.setTimeout(0));
}

/** How many of something each address holds; addresses at zero are forgotten. */
class Counter {
  private readonly counts = new Map<string, number>();

  count(address: string): number {
    return this.counts.get(address) ?? 0;
  }

  add(address: string): void {
    this.counts.set(address, this.count(address) + 1);
  }

  remove(address: string): void {
    const left = this.count(address) - 1;
    if (left > 0) this.counts.set(address, left);
    else this.counts.delete(address);
  }
}
