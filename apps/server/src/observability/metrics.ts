import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one instance, served at /metrics. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'ferry_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'ferry_http_request_duration_seconds',
    help: 'Time to answer HTTP requests (until the response is sent), by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600],
    registers: [this.registry],
  });
  readonly uploadBytes = new Counter({
    name: 'ferry_upload_bytes_total',
    help: 'File bytes received through uploads',
    registers: [this.registry],
  });
  readonly downloadBytes = new Counter({
    name: 'ferry_download_bytes_total',
    help: 'File and ZIP bytes sent to downloaders',
    registers: [this.registry],
  });
  readonly activeUploads = new Gauge({
    name: 'ferry_active_uploads',
    help: 'Upload requests (tus PATCH) receiving bytes right now',
    registers: [this.registry],
  });
  readonly activeDownloads = new Gauge({
    name: 'ferry_active_downloads',
    help: 'Download responses (files and ZIPs) sending bytes right now',
    registers: [this.registry],
  });
  readonly jobQueueDepth = new Gauge({
    name: 'ferry_job_queue_depth',
    help: 'Background jobs waiting to run, by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });

  readonly clientLimitHits = new Counter({
    name: 'ferry_client_limit_hits_total',
    help: 'Requests and connections cut by a client limit: body_idle (a body stopped arriving), connections (over the per-client cap)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  private streaming = 0;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'ferry_' });
  }

  /** Uploads and downloads moving bytes right now, in this process (what the C heap trim waits for). */
  get streamsInProgress(): number {
    return this.streaming;
  }

  /** An upload body or a download response started streaming; `streamEnded` with the same kind follows once. */
  streamStarted(kind: 'upload' | 'download'): void {
    (kind === 'upload' ? this.activeUploads : this.activeDownloads).inc();
    this.streaming += 1;
  }

  streamEnded(kind: 'upload' | 'download'): void {
    (kind === 'upload' ? this.activeUploads : this.activeDownloads).dec();
    this.streaming -= 1;
  }
}
