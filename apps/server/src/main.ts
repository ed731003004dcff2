import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locker } from '@tus/utils';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { buildApp, hostOriginOf, publicOriginOf, redactUrl } from './app.js';
import { OidcSignIn } from './auth/oidc.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { PgAccountRepository } from './db/account.repository.js';
import { connectDatabase, runMigrations } from './db/client.js';
import { PgContactsRepository } from './db/contacts.repository.js';
import { PgCustomizationRepository } from './db/customization.repository.js';
import { DashboardRepository } from './db/dashboard.repository.js';
import { PgAdditionRepository } from './db/dashboard-additions.repository.js';
import { PgCloneRepository } from './db/dashboard-clone.repository.js';
import { startEmbeddedPostgres, takeBackShutdownSignals } from './db/embedded.js';
import { PgHostRepository } from './db/host.repository.js';
import { PgInvoiceRepository } from './db/invoice.repository.js';
import { PgLinkPreviewRepository } from './db/link-preview.repository.js';
import { PgModerationRepository } from './db/moderation.repository.js';
import { PgNotificationRepository } from './db/notification.repository.js';
import { PgOperatorRepository } from './db/operator.repository.js';
import { PgOperatorLog } from './db/operator-log.repository.js';
import { PgPreviewRepository } from './db/preview.repository.js';
import { PgProviderEvents } from './db/provider-events.repository.js';
import { PgPurchaseRepository } from './db/purchase.repository.js';
import { PgReceiveRepository } from './db/receive.repository.js';
import { PgSalesRepository } from './db/sales.repository.js';
import { PgScanRepository } from './db/scan.repository.js';
import { PgSecurityLogRepository } from './db/security-log.repository.js';
import { PgSubscriptionRepository, type SubscriptionRecord } from './db/subscription.repository.js';
import { PgTeamRepository } from './db/team.repository.js';
import { PgTeamMembersRepository } from './db/team-members.repository.js';
import { PgTransferRepository } from './db/transfer.repository.js';
import { PgWebhookRepository } from './db/webhook.repository.js';
import { txtLookup } from './dns/txt-lookup.js';
import { ConnectionTracker } from './http/connection-tracker.js';
import { MetricsServer } from './http/metrics-server.js';
import {
  AVAILABILITY_RELEASE,
  AVAILABILITY_SWEEP,
  AVAILABILITY_SWEEP_CRON,
  type AvailabilityJob,
  availabilityQueues,
} from './jobs/availability-job.js';
import { PgMailDeliveries } from './jobs/mail-deliveries.js';
import { MailJob, mailQueueDefinition } from './jobs/mail-job.js';
import { JobQueue } from './jobs/queue.js';
import { DataDirLock } from './lib/data-dir-lock.js';
import { HeapTrimmer, loadMallocTrim } from './lib/heap-trim.js';
import { createMailer } from './mail/index.js';
import { SharpThemeMedia } from './media/theme-media.js';
import { Metrics } from './observability/metrics.js';
import { type CardProviders, createCardProviders } from './payments/card-providers.js';
import { Catalogue, loadPrices } from './payments/catalogue.js';
import { ManualProvider } from './payments/manual.js';
import type { PaymentProvider } from './payments/provider.js';
import type { ProviderEventHandler } from './payments/provider-events.js';
import { detectPreviewTools, PreviewRenderer } from './previews/renderer.js';
import { MemoryRateLimiter } from './ratelimit/memory.js';
import { RedisLocker } from './redis/redis-locker.js';
import { RedisRateLimiter } from './redis/redis-rate-limiter.js';
import { ClamdClient } from './scan/clamd-client.js';
import { Argon2PasswordHasher } from './security/argon2.js';
import { SecondFactor } from './security/second-factor.js';
import { Signer, sha256Hex } from './security/secrets.js';
import { AuthService } from './services/auth.service.js';
import { AvailabilityHold, AvailabilityReleases } from './services/availability-hold.js';
import { BillingAccounts } from './services/billing-account.js';
import type { Invoices, Taxes } from './services/billing-ports.js';
import { CleanupService } from './services/cleanup.service.js';
import { ContactsService } from './services/contacts.service.js';
import { CustomizationService } from './services/customization.service.js';
import { DashboardService } from './services/dashboard.service.js';
import { DashboardAccess } from './services/dashboard-access.js';
import { DashboardActionsService } from './services/dashboard-actions.service.js';
import { AddedFileUploadAuth, FileAdditionService } from './services/dashboard-additions.service.js';
import { type CloneJob, TRANSFER_CLONE, TransferCloneService } from './services/dashboard-clone.service.js';
import { DomainsService } from './services/domains.service.js';
import { DownloadService } from './services/download.service.js';
import { planOf } from './services/effective-plan.js';
import { TableHostDirectory } from './services/host-directory.js';
import { HostHandoffService } from './services/host-handoff.service.js';
import { type HostDirectory, MAIN_HOST_ONLY } from './services/host-ports.js';
import { InboxService } from './services/inbox.service.js';
import { InvoiceMails, InvoiceService } from './services/invoice.service.js';
import { LimitsService, withTeamDownloads } from './services/limits.service.js';
import { LinkPreviewService } from './services/link-preview.service.js';
import { ModerationService } from './services/moderation.service.js';
import { ModerationHold } from './services/moderation-hold.js';
import { ReportMails } from './services/moderation-mails.js';
import {
  type ConfirmationJob,
  type DispatchJob,
  DOWNLOAD_CONFIRMATION,
  MAINTENANCE_TICK,
  NotificationService,
  TRANSFER_DISPATCH,
} from './services/notification.service.js';
import { OperatorService } from './services/operator.service.js';
import { OperatorAccess } from './services/operator-access.js';
import { OperatorBillingService } from './services/operator-billing.service.js';
import { PlanService } from './services/plan.service.js';
import type { RateLimiter } from './services/ports.js';
import { PreviewService } from './services/preview.service.js';
import { PREVIEW_RENDER, PreviewJobs } from './services/preview-jobs.js';
import type { PreviewJob } from './services/preview-ports.js';
import { PurchaseService } from './services/purchase.service.js';
import { DEFAULT_RECEIVE_RATE_LIMITS, ReceiveService } from './services/receive.service.js';
import { ReceiveOwners } from './services/receive-owner.js';
import { ReceivePoints } from './services/receive-points.js';
import { ReceiveRequestService } from './services/receive-request.service.js';
import { SalesService } from './services/sales.service.js';
import {
  releaseAfterScanningOff,
  SCAN_FILE_QUEUE,
  type ScanJob,
  ScanService,
} from './services/scan.service.js';
import { PgSecurityLog } from './services/security-log.js';
import { SecurityLogAdminService } from './services/security-log-admin.service.js';
import { SubscriptionService } from './services/subscription.service.js';
import { SubscriptionDunning } from './services/subscription-dunning.js';
import { subscriptionLine } from './services/subscription-view.js';
import { TaxService } from './services/tax.service.js';
import { TeamAdminService } from './services/team-admin.service.js';
import { TeamMembersService } from './services/team-members.service.js';
import { TeamPolicyService } from './services/team-policy.js';
import { TeamTokenService } from './services/team-tokens.service.js';
import { TransferService } from './services/transfer.service.js';
import type { TransferHold } from './services/transfer-holds.js';
import { permissionsOf, UserService } from './services/user.service.js';
import { WEBHOOKS_TICK, WebhookService } from './services/webhook.service.js';
import { HashingDataStore } from './storage/hashing-store.js';
import { createStorage } from './storage/index.js';

export const VERSION: string = JSON.parse(
  readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
).version;

/** The queue of the hourly sweep of abandoned uploads. */
export const SWEEP_UNFINISHED = 'maintenance.sweep-unfinished';
/** Daily: security-log entries older than their team's retention are deleted. */
export const PURGE_SECURITY_LOG = 'maintenance.purge-security-log';

/** Daily: custom domains' DNS proofs are looked up again (suspended after 7 days missing). */
export const HOSTS_RECHECK = 'maintenance.hosts-recheck';

/** Billing as the tests and the integrator reach it. */
export interface FerryBilling {
  subscriptions: SubscriptionService;
  /** Renewals and dunning; the maintenance tick runs it. */
  dunning: SubscriptionDunning;
  plans: PlanService;
  invoices: Invoices;
  taxes: Taxes;
}

/** What createFerry takes besides config (tests: a movable clock; the card providers once wired). */
export interface FerryOptions {
  /** The clock of billing (periods, trials, dunning). */
  now?: () => Date;
  /** The clock of webhook deliveries (when a retry is due), for tests that move time. */
  webhookNow?: () => Date;
  /** STRIPE and PAYPAL adapters (payments/stripe.ts, paypal.ts): offered when PAYMENT_PROVIDERS names them. */
  cardProviders?: PaymentProvider[];
  /** A test's own recording handler of provider events, in place of the subscriptions' and purchases'. */
  providerEvents?: ProviderEventHandler;
  /** Holds asked after Ferry's own when a transfer's files have arrived (a test acting at that moment). */
  extraHolds?: TransferHold[];
}

/** The options a test may give (FerryOptions). */
export type FerryOverrides = FerryOptions;

export interface Ferry {
  app: FastifyInstance;
  /** Teams' security logs: listing, export, retention and its daily purge. */
  securityLogs: SecurityLogAdminService;
  billing: FerryBilling;
  config: Config;
  cleanup: CleanupService;
  jobs: JobQueue;
  notifications: NotificationService;
  /** Webhooks: deliverDue() sends what is due (the webhooks job runs it every minute). */
  webhooks: WebhookService;
  metrics: Metrics;
  /** Teams' authentication policies: memberEmailAllowed(teamId, email) for invitations and joins. */
  teamPolicies: TeamPolicyService;
  /** EU VAT decisions (billing-ports Taxes). */
  taxes: TaxService;
  /** Invoices: issue, mark paid, void, open amounts, payment listeners (billing-ports Invoices). */
  invoices: InvoiceService;
  /**
   * Serves /metrics on METRICS_HOST:METRICS_PORT (nothing with METRICS_PORT=off); resolves with its URL, or null.
   * Called before the app listens; close() stops it.
   */
  listenMetrics(): Promise<string | null>;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database and the data dir. */
  close(): Promise<void>;
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    serializers: {
      req: (req: { id: string; method: string; url: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  });
}

async function secretKey(config: Config): Promise<string> {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, 'secret.key');
  if (existsSync(file)) return (await fs.readFile(file, 'utf8')).trim();
  const key = randomBytes(32).toString('base64url');
  await fs.writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** The composition root: the one place that picks concrete adapters and wires services to them. */
export async function createFerry(
  config: Config,
  logger: Logger = createLogger(config),
  options: FerryOptions = {},
): Promise<Ferry> {
  const cleanups: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };
  try {
    let databaseUrl = config.databaseUrl;
    await fs.mkdir(config.dataDir, { recursive: true });
    if (!databaseUrl) {
      // The embedded default owns its data dir; external PostgreSQL lets many instances share one.
      const lock = await DataDirLock.acquire(config.dataDir);
      cleanups.push(() => lock.release());
      const embedded = await startEmbeddedPostgres(config.dataDir, logger);
      cleanups.push(() => embedded.stop());
      databaseUrl = embedded.url;
    }
    const database = connectDatabase(databaseUrl, 20, (err) =>
      logger.warn({ err }, 'an idle database connection failed'),
    );
    cleanups.push(() => database.close());
    await runMigrations(database);

    const metrics = new Metrics();
    // Which bucket and which SSE-C key a transfer's objects use are fixed when it is created.
    const placement = new PgTransferRepository(database.db);
    const storage = await createStorage(config, {
      sseC: (transferId) => placement.sseCOf(transferId),
      region: (transferId) => placement.storageRegionOf(transferId),
    });
    const uploadStore = new HashingDataStore(storage, (n) => metrics.uploadBytes.inc(n));
    const readiness: Record<string, () => Promise<void>> = {
      database: async () => void (await database.pool.query('SELECT 1')),
      storage: () => storage.blobs.ping(),
    };
    let rateLimiter: RateLimiter = new MemoryRateLimiter();
    let uploadLocker: Locker | undefined;
    if (config.redisUrl) {
      // Scale-out: rate limits and upload locks live in Redis, shared by every instance. The client is loaded only
      // then: a single box does not carry it in memory.
      const { Redis } = await import('ioredis');
      const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
      const subscriber = new Redis(config.redisUrl);
      cleanups.push(async () => {
        redis.disconnect();
        subscriber.disconnect();
      });
      await redis.ping();
      rateLimiter = new RedisRateLimiter(redis);
      uploadLocker = new RedisLocker(redis, subscriber);
      readiness.redis = async () => void (await redis.ping());
    }
    const repo = new PgTransferRepository(database.db);
    const passwords = new Argon2PasswordHasher();
    const uploads = {
      uploadBlobKey: (id: string) => storage.uploadBlobKey(id),
      async discardUpload(id: string) {
        uploadStore.forget(id);
        await storage.tusStore.remove(id).catch(() => undefined);
      },
    };
    const cleanup = new CleanupService(
      repo,
      uploads,
      config.unfinishedUploadTtlHours,
      undefined,
      config.anonymous.unfinishedUploadTtlHours,
    );
    const jobs = new JobQueue({
      databaseUrl,
      maintenanceIntervalSeconds: config.jobMaintenanceSeconds,
      queues: [
        { name: SWEEP_UNFINISHED, policy: 'singleton', retryLimit: 3, retryDelay: 60, expireInSeconds: 3600 },
        {
          name: PURGE_SECURITY_LOG,
          policy: 'singleton',
          retryLimit: 3,
          retryDelay: 300,
          expireInSeconds: 3600,
        },
        { name: HOSTS_RECHECK, policy: 'singleton', retryLimit: 3, retryDelay: 600, expireInSeconds: 3600 },
        mailQueueDefinition(config.mail.job),
        {
          name: TRANSFER_DISPATCH,
          policy: 'short',
          retryLimit: 10,
          retryDelay: 10,
          retryBackoff: true,
          expireInSeconds: 600,
        },
        {
          name: DOWNLOAD_CONFIRMATION,
          policy: 'short',
          retryLimit: 10,
          retryDelay: 30,
          retryBackoff: true,
          expireInSeconds: 300,
        },
        { name: MAINTENANCE_TICK, policy: 'singleton', retryLimit: 0, expireInSeconds: 900 },
        // One queued scan per file; a clamd outage fails the attempt, retried with backoff (docs/scanning.md).
        {
          name: SCAN_FILE_QUEUE,
          policy: 'short',
          retryLimit: config.scan?.retryLimit ?? 12,
          retryDelay: config.scan?.retryDelaySeconds ?? 30,
          retryBackoff: true,
          expireInSeconds: (config.scan?.timeoutSeconds ?? 600) + 60,
        },
        // One job per file; a storage error is retried, a file the tools cannot read ends as "none" at once.
        {
          name: PREVIEW_RENDER,
          policy: 'short',
          retryLimit: 2,
          retryDelay: 30,
          retryBackoff: true,
          expireInSeconds: 900,
        },
        { name: WEBHOOKS_TICK, policy: 'singleton', retryLimit: 0, expireInSeconds: 600 },
        // One running copy per clone ('stately'); a large server-side copy may take a while.
        {
          name: TRANSFER_CLONE,
          policy: 'stately',
          retryLimit: 10,
          retryDelay: 10,
          retryBackoff: true,
          expireInSeconds: 6 * 3600,
        },
        ...availabilityQueues,
      ],
      logger: logger.child({ component: 'jobs' }),
    });
    await jobs.start();
    // Pushed after the database, so it stops first: running jobs finish before the pool closes.
    cleanups.push(() => jobs.stop({ graceful: true, timeoutMs: config.shutdownGraceSeconds * 1000 }));

    const mailer = createMailer(config.mail, logger.child({ component: 'mail' }));
    cleanups.push(() => mailer.close());
    const mailJob = new MailJob(
      jobs,
      mailer,
      new PgMailDeliveries(database.pool),
      logger.child({ component: 'mail' }),
      config.mail.job,
    );
    const key = await secretKey(config);
    const signer = new Signer(key);
    const accounts = new PgAccountRepository(database.pool);
    // Teams' security logs: every service that acts for an account writes its events here.
    const securityLog = new PgSecurityLog(database.pool);
    // Teams' authentication policies; the members' invitations and joins check memberEmailAllowed.
    const teamPolicies = new TeamPolicyService(accounts, securityLog, [
      'password',
      ...config.oidc.providers.map((p) => p.name),
    ]);
    const auth = new AuthService(
      accounts,
      passwords,
      rateLimiter,
      mailJob,
      new SecondFactor(key, config.productName),
      signer.derive('session-jwt'),
      config.productName,
      logger.child({ component: 'auth' }),
      undefined,
      { dailyQuota: config.apiTokenDailyQuota, securityLog },
    );
    auth.recordSecurity(securityLog);
    const securityLogs = new SecurityLogAdminService(new PgSecurityLogRepository(database.pool), options.now);
    securityLogs.recordSecurity(securityLog);
    // Links in mails start with the public origin asked at send time; with PORT=0 that is the port the app is
    // given when it listens, known only once the app below exists.
    let appServer: Server | undefined;
    const publicOrigin = () => publicOriginOf(config, appServer);
    const hosts = createHosts(config, database.pool, {
      rateLimiter,
      logger,
      hostOrigin: (host) => hostOriginOf(config, host, appServer),
      handoffKey: signer.derive('host-handoff'),
      accounts,
      auth,
    });
    const notifications = new NotificationService(
      repo,
      new PgNotificationRepository(database.pool),
      mailJob,
      jobs,
      rateLimiter,
      signer,
      uploads,
      config.notifications,
      config.productName,
      publicOrigin,
      logger.child({ component: 'notifications' }),
    );
    mailJob.onUndeliverable(async (mail, reason) => {
      await notifications.undeliverable(mail.idempotencyKey, reason);
    });
    const limits = new LimitsService(
      accounts,
      new PgTeamRepository(database.pool),
      repo,
      storage.regionNames,
    );
    const contacts = new ContactsService(
      new PgContactsRepository(database.pool),
      accounts,
      logger.child({ component: 'contacts' }),
    );
    const additionsRepo = new PgAdditionRepository(database.db);
    const transfers = new TransferService(
      repo,
      passwords,
      uploads,
      notifications,
      limits,
      contacts,
      new AddedFileUploadAuth(additionsRepo),
    );
    transfers.limitAnonymous({ limiter: rateLimiter, ...config.anonymous });
    const operators = new OperatorAccess(config.billing.operatorEmails);
    const moderationRepo = new PgModerationRepository(database.pool);
    // Moderation is asked first: its automatic rule decides at `uploaded` only, before any other hold's status.
    transfers.addHold(
      new ModerationHold(moderationRepo, operators, {
        s1Recipients: config.moderation.holdS1Recipients,
        windowMinutes: config.moderation.holdWindowMinutes,
      }),
    );
    const reportKey = signer.derive('abuse-report-client');
    const moderation = new ModerationService(
      moderationRepo,
      operators,
      transfers,
      rateLimiter,
      (ip) => sha256Hex(`${reportKey}:${ip}`),
      { retentionDays: config.moderation.retentionDays, reportsToHold: config.moderation.reportsToHold },
    );
    moderation.onReport(
      new ReportMails(mailJob, config.billing.operatorEmails, repo, {
        productName: config.productName,
        publicOrigin,
      }),
    );
    transfers.recordSecurity(securityLog);
    transfers.storeWithSseC(config.storage === 's3' && config.storageEncryptionKey !== null);
    const dashboard = (() => {
      const dashboardRepo = new DashboardRepository(database.db);
      const access = new DashboardAccess(repo, accounts);
      const log = logger.child({ component: 'dashboard' });
      const read = new DashboardService(
        dashboardRepo,
        additionsRepo,
        repo,
        access,
        limits,
        transfers,
        notifications,
      );
      const additions = new FileAdditionService(
        additionsRepo,
        repo,
        access,
        read,
        limits,
        notifications,
        uploads,
        log,
        config.unfinishedUploadTtlHours,
      );
      const actions = new DashboardActionsService(
        dashboardRepo,
        repo,
        access,
        read,
        additions,
        limits,
        transfers,
        notifications,
        passwords,
        uploads,
        log,
      );
      const clones = new TransferCloneService(
        new PgCloneRepository(database.db),
        dashboardRepo,
        repo,
        access,
        read,
        limits,
        notifications,
        passwords,
        storage,
        jobs,
        log,
      );
      actions.recordSecurity(securityLog);
      return { read, actions, clones, additions };
    })();

    // Files that arrive by a clone or an addition are news for the listeners too (scans).
    dashboard.clones.onFilesArrived((transfer, files) => transfers.filesArrived(transfer, files));
    dashboard.additions.onFilesArrived((transfer, files) => transfers.filesArrived(transfer, files));
    const scanRepo = new PgScanRepository(database.db);
    const scans = config.scan
      ? new ScanService(
          scanRepo,
          repo,
          (key) => storage.blobs.read(key),
          new ClamdClient(config.scan.clamd, config.scan.timeoutSeconds * 1000),
          jobs,
          (transferId) => transfers.releaseHeld(transferId),
          async (transferId, file, signature) =>
            void (await notifications.fileInfected(transferId, file, signature)),
          config.scan,
          logger.child({ component: 'scan' }),
        )
      : null;
    if (scans && config.scan) {
      dashboard.additions.scanAddedFiles(config.scan.streamMaxBytes);
      dashboard.clones.scanClonedFiles(config.scan.streamMaxBytes);
      transfers.addHold(scans);
      transfers.onFilesArrived(scans);
      await jobs.work<ScanJob>(SCAN_FILE_QUEUE, async (job) => ({ status: await scans.scanFile(job.data) }), {
        concurrency: config.scan.workers,
      });
    }
    for (const hold of options.extraHolds ?? []) transfers.addHold(hold);
    // The availability window is asked last: a transfer under review or being scanned says so first, and opens
    // (PENDING until its moment) once those holds end.
    const releaseScheduler = {
      releaseAt: async (transferId: string, at: Date) =>
        void (await jobs.send<AvailabilityJob>(AVAILABILITY_RELEASE, { transferId }, { startAfter: at })),
    };
    transfers.addHold(new AvailabilityHold(releaseScheduler));
    const windows = new AvailabilityReleases(transfers, repo, releaseScheduler);
    dashboard.actions.onWindowMoved((transferId, availableFrom) => windows.moved(transferId, availableFrom));
    await jobs.work<AvailabilityJob>(AVAILABILITY_RELEASE, async (job) => ({
      status: await windows.release(job.data.transferId),
    }));
    await jobs.work(AVAILABILITY_SWEEP, async () => ({ released: await windows.releaseDue() }));
    await jobs.schedule(AVAILABILITY_SWEEP, AVAILABILITY_SWEEP_CRON);

    const receiveRepo = new PgReceiveRepository(database.pool);
    const receiveOwners = new ReceiveOwners(accounts, limits);
    const receive = new ReceiveService(
      receiveRepo,
      new ReceivePoints(receiveRepo, accounts, receiveOwners),
      receiveOwners,
      repo,
      transfers,
      passwords,
      rateLimiter,
      mailJob,
      {
        productName: config.productName,
        limits: {
          ...DEFAULT_RECEIVE_RATE_LIMITS,
          passwords: { attempts: config.passwordAttempts, windowSeconds: config.passwordWindowSeconds },
        },
        publicOrigin,
        hostOrigin: (host) => hostOriginOf(config, host, appServer),
      },
    );
    const receiveRequests = new ReceiveRequestService(
      receiveRepo,
      receiveOwners,
      passwords,
      signer,
      mailJob,
      {
        productName: config.productName,
        expiryReminderHours: config.notifications.expiryReminderHours,
        publicOrigin,
        hostOrigin: (host) => hostOriginOf(config, host, appServer),
      },
    );
    notifications.onReceive({
      delivered: (transferId) => receive.delivered(transferId),
      remindDue: (now) => receiveRequests.remindDue(now),
    });

    await jobs.work(SWEEP_UNFINISHED, async () => {
      const removed = await cleanup.sweepUnfinished();
      if (removed > 0) logger.info({ removed }, 'removed abandoned uploads');
      // Files being added to a transfer and never completed; clones whose copy job was lost.
      const additions = await dashboard.additions.sweepAbandoned();
      if (additions > 0) logger.info({ additions }, 'removed abandoned file additions');
      const clones = await dashboard.clones.requeueStuck();
      // Scans out of retries after a long clamd outage are queued again: a file is never left unscanned.
      const rescans = scans
        ? await scans.requeue()
        : await releaseAfterScanningOff(scanRepo, (id) => transfers.releaseHeld(id));
      return { removed, additions, clones, rescans };
    });
    await jobs.work<CloneJob>(
      TRANSFER_CLONE,
      async (job) => ({ outcome: await dashboard.clones.copyFiles(job.data.transferId) }),
      { concurrency: 2 },
    );
    await mailJob.work(config.mail.workers);
    await jobs.work<DispatchJob>(TRANSFER_DISPATCH, async (job) => ({
      outcome: await notifications.dispatch(job.data.transferId),
    }));
    await jobs.work<ConfirmationJob>(DOWNLOAD_CONFIRMATION, async (job) => ({
      confirmed: await notifications.confirmDownloads(job.data),
    }));
    const taxes = new TaxService(
      { sellerCountry: config.billing.seller.country, vies: config.billing.vies },
      logger.child({ component: 'taxes' }),
      rateLimiter,
    );
    const invoices = new InvoiceService(
      new PgInvoiceRepository(database.pool),
      new PgOperatorLog(database.pool),
      operators,
      {
        prefix: config.billing.invoicePrefix,
        dueDays: config.billing.invoiceDueDays,
        seller: config.billing.seller,
        productName: config.productName,
      },
      logger.child({ component: 'invoices' }),
    );
    invoices.setEvents(new InvoiceMails(mailJob, config.productName, publicOrigin));
    // STRIPE and PAYPAL of PAYMENT_PROVIDERS: the webhooks below and the subscriptions and purchases use them.
    const cardProviders: CardProviders = {
      ...createCardProviders(config.billing, logger.child({ component: 'payments' }), {
        publicOrigin: config.publicUrl ?? null,
        brandName: config.productName,
      }),
      // A test's stand-in adapters take the place of the configured ones.
      ...Object.fromEntries((options.cardProviders ?? []).map((p) => [p.name, p])),
    };
    const billing = createBilling(config, logger, options, {
      cardProviders: Object.values(cardProviders),
      operators,
      taxes,
      invoices,
      pool: database.pool,
      accounts,
      mailJob,
      publicOrigin,
      storageUsed: (userId) => repo.storageUsed(userId),
    });
    await jobs.work(MAINTENANCE_TICK, async () => {
      const done = await notifications.tick();
      if (done.expired + done.reminded + done.requestsReminded + done.redispatched + done.reconfirmed > 0)
        logger.info(done, 'maintenance');
      // Plans ending, MANUAL renewals and dunning: once across instances, as the tick is a singleton job.
      const subscriptions = await billing.dunning.tick();
      if (Object.values(subscriptions).some((n) => n > 0)) logger.info(subscriptions, 'subscriptions');
      return { ...done, subscriptions };
    });
    await jobs.schedule(SWEEP_UNFINISHED, '17 * * * *'); // hourly, once across all instances
    await jobs.work(PURGE_SECURITY_LOG, async () => {
      const purged = await securityLogs.purge();
      if (purged > 0) logger.info({ purged }, 'purged security-log entries past their retention');
      return { purged };
    });
    await jobs.schedule(PURGE_SECURITY_LOG, '41 3 * * *'); // daily, once across all instances
    await jobs.work(HOSTS_RECHECK, async () => {
      const done = await hosts.domains.recheckAll();
      if (done.missing > 0) logger.info(done, 'custom domains whose DNS proof is missing');
      return done;
    });
    await jobs.schedule(HOSTS_RECHECK, '23 4 * * *'); // daily, once across all instances
    await jobs.schedule(MAINTENANCE_TICK, config.notifications.maintenanceCron);
    const teamTokens = new TeamTokenService(accounts);
    teamTokens.recordSecurity(securityLog);
    const webhooks = new WebhookService(
      new PgWebhookRepository(database.pool),
      { allowPrivate: config.webhookAllowPrivate, now: options.webhookNow },
      logger.child({ component: 'webhooks' }),
    );
    webhooks.recordSecurity(securityLog);
    await jobs.work(WEBHOOKS_TICK, async () => ({ tried: await webhooks.deliverDue() }));
    await jobs.schedule(WEBHOOKS_TICK, '* * * * *'); // every minute, once across all instances
    const depthTimer = setInterval(() => {
      jobs
        .depths()
        .then((depths) => {
          // A queue whose size pg-boss cannot tell (it is stopping) has no figure, rather than ending the process.
          for (const [queue, n] of Object.entries(depths))
            if (typeof n === 'number' && Number.isFinite(n)) metrics.jobQueueDepth.set({ queue }, n);
        })
        .catch((err) => logger.warn({ err }, 'job queue depth unavailable'));
    }, 15_000);
    depthTimer.unref();
    cleanups.push(async () => clearInterval(depthTimer));
    const downloads = new DownloadService(
      withTeamDownloads(repo, limits),
      passwords,
      rateLimiter,
      storage.blobs,
      signer,
      { attempts: config.passwordAttempts, windowSeconds: config.passwordWindowSeconds },
      config.downloadLinkTtlSeconds,
      notifications,
      (userId) => limits.planOf(userId),
      async (userId) => (await accounts.user(userId))?.suspendedAt != null,
    );
    downloads.recordSecurity(securityLog);
    downloads.gateScans(config.scan?.policy ?? null);
    downloads.releasePendingWith((transferId) => transfers.releaseHeld(transferId));
    downloads.restrictReceived((transfer, userId) => receive.mayDownload(transfer, userId));
    // The admin transfers page: the owner's team manager or a TRANSFER_MANAGER of the team downloads as an admin.
    downloads.adminDownloads({
      mayAdminister: async (transfer, userId) => {
        if (!transfer.ownerId) return false;
        const [owner, caller] = [await accounts.user(transfer.ownerId), await accounts.user(userId)];
        if (!owner || !caller) return false;
        const team = owner.managerId ?? owner.id;
        return (
          caller.id === team ||
          (caller.managerId === team && permissionsOf(caller).includes('TRANSFER_MANAGER'))
        );
      },
      downloaded: (transfer, adminId, what) =>
        securityLog.record({
          userId: transfer.ownerId!,
          action: 'transfer-downloaded',
          actorUserId: adminId,
          ip: what.ip,
          userAgent: what.userAgent,
          target: transfer.id,
          details: { admin: true, fileId: what.fileId, bytes: what.bytes },
        }),
    });
    // Selling files: a priced transfer is downloaded with a purchase, paid through a card provider.
    const purchases = new PurchaseService(
      new PgPurchaseRepository(database.pool),
      repo,
      taxes,
      invoices,
      new Map(Object.values(cardProviders).map((p) => [p.name, p] as const)),
      mailJob,
      rateLimiter,
      { productName: config.productName, publicOrigin, tokenKey: signer.derive('purchase-token') },
      options.now,
    );
    transfers.allowSelling(purchases.enabled);
    downloads.requirePurchases(purchases);
    dashboard.read.showSales((transferId) => purchases.sales(transferId));
    // Thumbnails and previews: rendered by jobs after upload, served as signed renditions (never the file).
    const previewRepo = new PgPreviewRepository(database.db);
    const previewJobs = new PreviewJobs(
      previewRepo,
      repo,
      storage.blobs,
      new PreviewRenderer(await detectPreviewTools(config.previews, logger.child({ component: 'previews' }))),
      {
        queue: async (job) =>
          void (await jobs.send(PREVIEW_RENDER, job, { singletonKey: `${job.transferId}:${job.fileId}` })),
      },
      { maxInputBytes: config.previews.maxInputBytes, tempDir: path.join(config.dataDir, 'tmp') },
      logger.child({ component: 'previews' }),
    );
    transfers.onFilesArrived(previewJobs);
    notifications.onExpiry((transferId) => previewJobs.removeAll(transferId));
    await jobs.work<PreviewJob>(PREVIEW_RENDER, async (job) => {
      try {
        const done = await previewJobs.render(job.data);
        return { status: done.status, kind: done.kind, reason: done.reason };
      } catch (err) {
        // The storage failed us (the renderer's own failures are "none" already): retried, then none for good.
        if (job.retryCount < 2) throw err;
        await previewJobs.giveUp(job.data, err);
        return { status: 'none', reason: 'failed' };
      }
    });
    const previews = new PreviewService(
      previewRepo,
      repo,
      downloads,
      previewJobs,
      storage.blobs,
      new Signer(signer.derive('rendition-links')),
      { perTransfer: config.previews.perTransfer, linkTtlSeconds: 3600, origin: config.previews.origin },
    );
    downloads.servePreviews(previews);
    downloads.onPasswordGuessing(async (transfer, info) => {
      const owner = transfer.ownerId ? await accounts.user(transfer.ownerId) : null;
      await notifications.passwordGuessing(
        transfer,
        info,
        owner && { email: owner.email, locale: owner.locale },
      );
    });
    const teamMembers = new TeamMembersService(
      new PgTeamMembersRepository(database.pool),
      accounts,
      auth,
      passwords,
      mailJob,
      securityLog,
      config.productName,
      logger.child({ component: 'team-members' }),
    );
    teamMembers.restrictEmails((teamId, email) => teamPolicies.memberEmailAllowed(teamId, email));
    const linkPreviews = new LinkPreviewService(
      new PgLinkPreviewRepository(database.db),
      new DashboardAccess(repo, accounts),
      (userId) => limits.planOf(userId),
      // The sender's account or team logo, when its theme has one (customization, made below).
      (ownerId) => customization.logoUrlOf(ownerId),
    );
    notifications.linkHostsWith((host) => hostOriginOf(config, host, appServer));
    // Themes: the host → owner lookup is the host directory's alone.
    const customization = new CustomizationService(
      new PgCustomizationRepository(database.pool),
      accounts,
      storage.blobs,
      new SharpThemeMedia(config.theme),
      hosts.hosts,
      rateLimiter,
      {
        subdomainsEnabled: hosts.hosts !== MAIN_HOST_ONLY,
        tempDir: path.join(config.dataDir, 'tmp'),
        uploadsPerHour: 60,
        publicOrigin,
      },
    );
    transfers.customizeWith(customization);
    downloads.brandWith((transfer) => customization.brandOf(transfer));
    receive.brandWith((ownerId) => customization.receiveThemeOf(ownerId));
    notifications.brandMails((ownerId) => customization.mailBrandOf(ownerId));
    receive.brandMails((ownerId) => customization.mailBrandOf(ownerId));
    const app = await buildApp({
      ...hosts,
      config,
      logger,
      version: VERSION,
      metrics,
      readiness,
      uploadLocker,
      transfers,
      dashboard,
      linkPreviews,
      downloads,
      previews,
      notifications,
      auth,
      oidc: new OidcSignIn(
        config.oidc.providers,
        signer.derive('oidc-transaction'),
        config.oidc.timeoutSeconds,
        logger.child({ component: 'oidc' }),
      ),
      limits,
      teamMembers,
      users: new UserService(
        accounts,
        logger.child({ component: 'users' }),
        config.countryHeader,
        securityLog,
      ),
      teamPolicies,
      teamAdmin: new TeamAdminService(
        accounts,
        new PgTeamRepository(database.pool),
        new PgTeamMembersRepository(database.pool),
        repo,
        new DashboardRepository(database.db),
        notifications,
        options.now,
      ),
      teamTokens,
      contacts,
      customization,
      receive,
      receiveRequests,
      inboxes: new InboxService(receiveRepo, receiveOwners, passwords),
      sales: new SalesService(
        new PgSalesRepository(database.pool),
        rateLimiter,
        mailJob,
        config.mail.salesEmail,
        config.mail.supportEmail,
        config.productName,
        logger.child({ component: 'sales' }),
      ),
      operators,
      taxes,
      invoices,
      subscriptions: billing.subscriptions,
      operatorBilling: billing.operatorBilling,
      purchases,
      securityLog,
      securityLogs,
      webhooks,
      operatorConsole: new OperatorService(operators, new PgOperatorRepository(database.pool), repo),
      moderation,
      uploadStore,
      cardProviders,
      providerEventLedger: new PgProviderEvents(database.pool),
      // A verified event is a one-time payment's (a purchase) or a subscription's.
      providerEvents: options.providerEvents ?? {
        handle: async (provider, event) => {
          if (await purchases.handleProviderEvent(provider, event)) return;
          await billing.subscriptions.handleProviderEvent(provider, event);
        },
      },
    });
    appServer = app.server;
    const connections = new ConnectionTracker(app.server);
    cleanups.push(() => connections.drain(() => app.close(), config.shutdownGraceSeconds * 1000));
    const metricsServer = new MetricsServer(metrics);
    cleanups.push(() => metricsServer.close());
    const listenMetrics = async () =>
      config.metricsListener
        ? metricsServer.listen(config.metricsListener.host, config.metricsListener.port)
        : null;
    return {
      app,
      securityLogs,
      billing,
      config,
      cleanup,
      jobs,
      notifications,
      webhooks,
      metrics,
      teamPolicies,
      taxes,
      invoices,
      listenMetrics,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * Accounts' and teams' own hosts: with BASE_DOMAIN the table of verified hosts (subdomains, proven custom domains),
 * else MAIN_HOST_ONLY; the domains API and the cross-domain sign-in hand-off on top.
 */
function createHosts(
  config: Config,
  pool: import('pg').Pool,
  deps: {
    rateLimiter: RateLimiter;
    logger: Logger;
    hostOrigin: (host: string) => string;
    handoffKey: string;
    accounts: PgAccountRepository;
    auth: AuthService;
  },
) {
  const store = new PgHostRepository(pool);
  const table = config.hosts.baseDomain
    ? new TableHostDirectory(store, {
        baseDomain: config.hosts.baseDomain,
        mainHost: config.publicUrl ? new URL(config.publicUrl).hostname.toLowerCase() : null,
        entitled: async (ownerId) => {
          const owner = await deps.accounts.user(ownerId);
          return owner !== null && planOf(owner, new Date()) !== 'NONE';
        },
      })
    : null;
  const log = deps.logger.child({ component: 'hosts' });
  const domains = new DomainsService(
    store,
    table,
    txtLookup(config.hosts.dnsResolver),
    deps.rateLimiter,
    deps.hostOrigin,
    log,
  );
  const handoffs = new HostHandoffService(
    {
      homeHostOf: (ownerId) => table?.homeHostOf(ownerId) ?? Promise.resolve(null),
      redeemOnce: (jti, expiresAt, now) => store.redeemHandoff(jti, expiresAt, now),
      user: (id) => deps.accounts.user(id),
      startSession: (user, provider, ctx, options) => deps.auth.startSession(user, provider, ctx, options),
      originOf: deps.hostOrigin,
      limiter: deps.rateLimiter,
    },
    deps.handoffKey,
  );
  const hosts: HostDirectory = table ?? MAIN_HOST_ONLY;
  return { hosts, domains, handoffs };
}

/** Plans, subscriptions, their providers, renewals and dunning, and the operators' plan routes. */
function createBilling(
  config: Config,
  logger: Logger,
  options: FerryOptions,
  deps: {
    cardProviders: PaymentProvider[];
    operators: OperatorAccess;
    taxes: Taxes;
    invoices: Invoices;
    pool: import('pg').Pool;
    accounts: PgAccountRepository;
    mailJob: MailJob;
    publicOrigin: () => string;
    storageUsed: (userId: string) => Promise<number>;
  },
) {
  const now = options.now ?? (() => new Date());
  const log = logger.child({ component: 'billing' });
  const catalogue = new Catalogue(loadPrices(config.billing.pricesFile), config.billing);
  const { taxes, invoices } = deps;
  const providers = new Map<PaymentProvider['name'], PaymentProvider>([['MANUAL', new ManualProvider()]]);
  for (const provider of deps.cardProviders) providers.set(provider.name, provider);
  const repo = new PgSubscriptionRepository(deps.pool);
  const plans = new PlanService(deps.pool);
  const line = (sub: SubscriptionRecord) => subscriptionLine(config.productName, sub.planCode, sub.frequency);
  const dunning = new SubscriptionDunning(
    repo,
    deps.accounts,
    plans,
    taxes,
    invoices,
    providers,
    deps.mailJob,
    { productName: config.productName, publicOrigin: deps.publicOrigin, line },
    log,
    now,
  );
  const subscriptions = new SubscriptionService(
    repo,
    deps.accounts,
    new BillingAccounts(deps.accounts),
    plans,
    taxes,
    invoices,
    catalogue,
    providers,
    dunning,
    {
      providers: config.billing.providers,
      trialDays: config.billing.trialDays,
      productName: config.productName,
    },
    log,
    now,
  );
  const operatorBilling = new OperatorBillingService(
    deps.pool,
    deps.operators,
    deps.accounts,
    plans,
    subscriptions,
    repo,
    new PgOperatorLog(deps.pool),
    deps.storageUsed,
    now,
  );
  return { subscriptions, dunning, plans, invoices, taxes, operatorBilling };
}

async function run(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  }
  const logger = createLogger(config);
  let ferry: Ferry;
  try {
    ferry = await createFerry(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, error instanceof Error ? error.message : 'start failed');
    process.exit(1);
  }
  // Before the first request can arrive: a SIGTERM right after the app answers is a clean shutdown too (the
  // embedded cluster's library would otherwise exit 143 at once).
  stopOnSignals(ferry, config, logger);
  try {
    // Metrics first: a taken metrics port stops the start before the app takes requests.
    const metricsUrl = await ferry.listenMetrics();
    if (metricsUrl) logger.info(`metrics at ${metricsUrl}`);
    await ferry.app.listen({ host: config.host, port: config.port });
  } catch (error) {
    logger.fatal({ err: error }, error instanceof Error ? error.message : 'start failed');
    process.exit(1);
  }
  const origin = publicOriginOf(config, ferry.app.server);
  if (!config.publicUrl)
    logger.warn(
      `PUBLIC_URL is not set: links in e-mails, transfer and request links and widget snippets start with ${origin}. Set PUBLIC_URL to the address people reach ${config.productName} at.`,
    );
  logger.info(`${config.productName} is ready at ${origin}`);
  // The C heap is the process's, not one Ferry instance's: trimmed here rather than in createFerry.
  const trim = config.mallocTrimSeconds > 0 ? await loadMallocTrim() : null;
  if (trim) {
    const metrics = ferry.metrics;
    new HeapTrimmer(trim, config.mallocTrimSeconds * 1000, () => metrics.streamsInProgress > 0).start();
  } else if (config.mallocTrimSeconds > 0) {
    logger.debug('no malloc_trim on this system (glibc only): free C heap memory stays with the process');
  }
}

/** SIGTERM and SIGINT finish in-flight requests, close every peer, then stop the embedded cluster last. */
function stopOnSignals(ferry: Ferry, config: Config, logger: Logger): void {
  takeBackShutdownSignals();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(
      () => {
        logger.warn('shutdown did not finish in time; exiting');
        process.exit(1);
      },
      (config.shutdownGraceSeconds + 15) * 1000,
    );
    force.unref();
    ferry.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const entry = process.argv[1] ? realpathSync(process.argv[1]) : '';
if (entry === fileURLToPath(import.meta.url)) await run();
