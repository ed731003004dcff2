import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Knows which sockets carry a request right now, so shutdown can drop the rest at once — including sockets
 * that were opened and never used (browsers and HTTP clients pre-connect), which Node's own
 * closeIdleConnections() leaves alone until its keep-alive timeout — and give busy ones a grace period.
 */
export class ConnectionTracker {
  private readonly active = new Map<Socket, number>();
  private closing = false;

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      if (this.closing) return void socket.destroy();
      this.active.set(socket, 0);
      socket.once('close', () => this.active.delete(socket));
    });
    server.on('request', (req, res) => {
      const socket = req.socket;
      this.active.set(socket, (this.active.get(socket) ?? 0) + 1);
      res.once('close', () => {
        const left = (this.active.get(socket) ?? 1) - 1;
        if (!this.active.has(socket)) return;
        this.active.set(socket, left);
        if (this.closing && left === 0) socket.destroy();
      });
    });
  }

  /** Drops idle sockets now and busy ones after `graceMs`; resolves when the server has closed. */
  async drain(close: () => Promise<void>, graceMs: number): Promise<void> {
    this.closing = true;
    for (const [socket, busy] of this.active) if (busy === 0) socket.destroy();
    const timer = setTimeout(() => {
      for (const socket of this.active.keys()) socket.destroy();
    }, graceMs);
    try {
      await close();
    } finally {
      clearTimeout(timer);
    }
  }
}
