#!/usr/bin/env node
// A small round-robin HTTP proxy for the load section's scaled-out run: `node bench/lib/proxy.mjs <port>
// <upstream URL> [<upstream URL> ...]`. Each request goes to the next upstream in turn (so a transfer created on one
// instance is uploaded to, completed on and downloaded from the others), bodies are streamed both ways, and the
// connections to the upstreams are kept alive. The Host header is passed on unchanged: Ferry builds the download
// URLs it hands out from it, so they point back at the proxy. Run in its own process, so that its CPU time is
// measured apart from the client's and the servers'.
import http from 'node:http';

const [portArg, ...upstreamArgs] = process.argv.slice(2);
const port = Number(portArg);
if (!Number.isInteger(port) || upstreamArgs.length === 0) {
  console.error('usage: node bench/lib/proxy.mjs <port> <upstream URL> [<upstream URL> ...]');
  process.exit(2);
}
const upstreams = upstreamArgs.map((url) => {
  const { hostname, port: upstreamPort } = new URL(url);
  return {
    hostname,
    port: Number(upstreamPort),
    agent: new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 1024 }),
  };
});

let turn = 0;
let failures = 0;

const server = http.createServer((req, res) => {
  const upstream = /** @type {(typeof upstreams)[number]} */ (upstreams[turn++ % upstreams.length]);
  const headers = { ...req.headers };
  // hop-by-hop headers belong to each connection, not to the request
  delete headers.connection;
  delete headers['keep-alive'];
  delete headers['proxy-connection'];
  const forward = http.request(
    {
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers,
      agent: upstream.agent,
    },
    (answer) => {
      const out = { ...answer.headers };
      delete out.connection;
      delete out['keep-alive'];
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  const fail = (/** @type {Error} */ error) => {
    failures++;
    if (failures <= 5) console.error(`proxy: ${req.method} ${req.url} to port ${upstream.port}: ${error}`);
    if (!res.headersSent) {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy: ${error.message}\n`);
    } else res.destroy();
  };
  forward.on('error', fail);
  // the client went away (a cut download): stop the upstream side too
  res.on('close', () => {
    if (!res.writableFinished) forward.destroy();
  });
  req.pipe(forward);
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.requestTimeout = 0; // uploads and downloads may be slow under load
server.listen(port, '127.0.0.1');

const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
