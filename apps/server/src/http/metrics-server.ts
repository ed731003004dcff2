import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from '../observability/metrics.js';

/**
 * /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by default), without a token: behind a
 * reverse proxy every request on the main port comes from the proxy, so only another port keeps the metrics
 * private. Anything else there is 404.
 */
export class MetricsServer {
  private readonly server: http.Server;

  constructor(metrics: Metrics) {
    this.server = http.createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end('Not found: only /metrics is served here.\n');
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
  }

  /** Listens; resolves with the URL of /metrics. Port 0 takes any free port. */
  async listen(host: string, port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', (err) =>
        reject(
          new Error(
            `cannot serve /metrics on ${host}:${port} (${err.message}); set METRICS_PORT to a free port, or to "off"`,
          ),
        ),
      );
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${shown}:${address.port}/metrics`;
  }

  async close(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
