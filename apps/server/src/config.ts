import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { OidcProvidersSetting } from './auth/oidc-config.js';
import { type TrustProxy, trustListProblem } from './http/client-address.js';
import { BillingEnv, billingConfig, billingProblems } from './payments/config.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Region name under which the main bucket is reached; S3_REGIONS names the others. */
export const DEFAULT_STORAGE_REGION = 'default';

const S3Regions = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be JSON: {"<name>": {"bucket": "…", "endpoint"?, "region"?}}',
      });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .record(
        z.string(),
        z.strictObject({
          bucket: z.string().min(1),
          endpoint: z.string().url().optional(),
          region: z.string().min(1).optional(),
        }),
      )
      .superRefine((regions, ctx) => {
        for (const name of Object.keys(regions)) {
          if (name === DEFAULT_STORAGE_REGION)
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: `"${name}" names the main bucket already`,
            });
          else if (!/^[a-z0-9][a-z0-9_-]{0,62}$/i.test(name))
            ctx.addIssue({ code: 'custom', path: [name], message: 'use letters, digits, "-" and "_"' });
        }
      }),
  );

/**
 * TRUST_PROXY: how many reverse proxies are in front (a number) or which addresses they have (a comma-separated
 * list of addresses, CIDR subnets or loopback/linklocal/uniquelocal). `true` is refused: it would believe every
 * X-Forwarded-For entry, including those the client writes itself.
 */
const TrustProxySetting = z.string().transform((text, ctx): TrustProxy => {
  const value = text.trim().toLowerCase();
  if (['', 'false', '0', 'no', 'off'].includes(value)) return false;
  if (['true', 'yes', 'on', 'all'].includes(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        '"true" would trust every X-Forwarded-For entry, and clients write those themselves; write how many proxies are in front of Ferry (TRUST_PROXY=1 behind one nginx) or their addresses (TRUST_PROXY=127.0.0.1, or a list such as 10.0.0.0/8,::1)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) {
      ctx.addIssue({ code: 'custom', message: 'more than 10 proxies in a row is surely a mistake' });
      return z.NEVER;
    }
    return { hops };
  }
  const addresses = text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const problem = trustListProblem(addresses);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: `${problem}; write a number of proxies or their addresses` });
    return z.NEVER;
  }
  return { addresses };
});

/** Where /metrics is served apart from the app (127.0.0.1 by default): the Prometheus exporters' usual port. */
export const DEFAULT_METRICS_PORT = 9464;

/** Every setting Ferry reads, from the environment; docs/configuration.md describes each one. */
const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PUBLIC_URL: z.string().url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().url().optional(),
    SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
    PRODUCT_NAME: z.string().default('Ferry'),
    // The public site (site/): the "made in" banner's country ('' turns it off), the optional audience script
    // loaded only after consent, and the operator's identity on /legal.
    MADE_IN_COUNTRY: z
      .string()
      .trim()
      .regex(/^([A-Za-z]{2})?$/, 'a two-letter country code (FR, DE…), or empty to hide the banner')
      .transform((v) => v.toUpperCase())
      .default('FR'),
    ANALYTICS_SCRIPT_URL: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), 'must be an http(s):// address')
      .optional(),
    LEGAL_NAME: z.string().trim().min(1).optional(),
    LEGAL_ADDRESS: z.string().trim().min(1).optional(),
    LEGAL_REGISTRATION: z.string().trim().min(1).optional(),
    LEGAL_CONTACT: z.string().trim().min(1).optional(),
    LEGAL_HOST: z.string().trim().min(1).optional(),
    API_TOKEN_DAILY_QUOTA: z.coerce.number().int().min(1).default(100_000),
    WEBHOOK_ALLOW_PRIVATE: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: TrustProxySetting.default(false),
    // Accounts' and teams' own hosts (docs/deploy.md "Subdomains and custom domains").
    BASE_DOMAIN: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^(?=.{3,200}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/,
        'a domain name such as ferry.example (subdomains {name}.BASE_DOMAIN are served)',
      )
      .optional(),
    DNS_RESOLVER: z
      .string()
      .trim()
      .regex(/^(?:\[[0-9a-f:.]+\]|[0-9.]+)(?::\d{1,5})?$/i, 'an IP address with an optional port: 1.1.1.1:53')
      .optional(),
    WEB_DIST: z.string().default(defaultWebDist),
    DOWNLOAD_LINK_TTL_SECONDS: z.coerce.number().int().min(60).default(86_400),
    UNFINISHED_UPLOAD_TTL_HOURS: z.coerce.number().int().min(1).default(72),
    PASSWORD_ATTEMPTS_PER_WINDOW: z.coerce.number().int().min(1).default(10),
    PASSWORD_ATTEMPT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    // Anonymous senders, per client address: how many creations, how many declared bytes still unfinished.
    ANONYMOUS_TRANSFERS_PER_WINDOW: z.coerce.number().int().min(1).default(30),
    ANONYMOUS_TRANSFER_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
    ANONYMOUS_PENDING_UPLOAD_GB: z.coerce.number().positive().default(20),
    ANONYMOUS_UNFINISHED_UPLOAD_TTL_HOURS: z.coerce.number().int().min(1).default(12),
    // Moderation (services/moderation.service.ts, moderation-hold.ts).
    RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
    MODERATION_REPORTS_TO_HOLD: z.coerce.number().int().min(0).default(3),
    MODERATION_HOLD_S1_RECIPIENTS: z.coerce.number().int().min(0).default(0),
    MODERATION_HOLD_WINDOW_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).default(25),
    MALLOC_TRIM_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    STORAGE: z.enum(['local', 's3']).default('local'),
    STORAGE_ENCRYPTION_KEY_FILE: z.string().min(1).optional(),
    S3_ENDPOINT: z.string().url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    // S3 allows parts of 5 MiB to 5 GiB.
    S3_PART_SIZE_MB: z.coerce.number().int().min(5).max(5120).default(64),
    S3_PRESIGNED_DOWNLOADS: bool.default(false),
    S3_REGIONS: S3Regions.optional(),
    REDIS_URL: z.string().url().optional(),
    METRICS_TOKEN: z.string().min(16).optional(),
    SINGLE_INSTANCE: bool.default(false),
    SMTP_URL: z
      .string()
      .url()
      .refine((u) => /^smtps?:\/\//.test(u), 'must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().email().optional(),
    MAIL_FROM_NAME: z.string().min(1).optional(),
    SALES_EMAIL: z.string().email().optional(),
    SUPPORT_EMAIL: z.string().email().optional(),
    MAIL_WORKERS: z.coerce.number().int().min(1).max(50).default(2),
    MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).max(100).default(10),
    MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(30),
    MAIL_ATTEMPT_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
    DKIM_DOMAIN: z.string().min(1).optional(),
    DKIM_SELECTOR: z.string().min(1).optional(),
    DKIM_PRIVATE_KEY: z.string().min(1).optional(),
    ANONYMOUS_SENDER_VERIFICATION: bool.default(true),
    VERIFICATION_CODE_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    DOWNLOAD_CONFIRMATION_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    EXPIRY_REMINDER_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(48),
    MAINTENANCE_CRON: z.string().min(9).default('* * * * *'),
    /** How often the job queue fails jobs whose attempt ran out of time (a dead instance's), so they are retried. */
    JOB_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    // Virus scanning with clamd (docs/scanning.md): a local socket, or a host and port.
    CLAMD_SOCKET: z.string().min(1).optional(),
    CLAMD_HOST: z.string().min(1).optional(),
    CLAMD_PORT: z.coerce.number().int().min(1).max(65535).default(3310),
    SCAN_POLICY: z.enum(['block', 'background']).optional(),
    /** clamd's StreamMaxLength as Ferry assumes it (Debian's default 25M); larger files are not scanned. */
    CLAMD_STREAM_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(4_294_967_295)
      .default(25 * 1024 * 1024),
    CLAMD_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(600),
    SCAN_RETRY_LIMIT: z.coerce.number().int().min(0).max(1000).default(12),
    SCAN_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
    SCAN_WORKERS: z.coerce.number().int().min(1).max(32).default(2),
    PREVIEWS_PER_TRANSFER: z.coerce.number().int().min(0).default(200),
    PREVIEW_ORIGIN: z.string().url().optional(),
    PREVIEW_MAX_INPUT_MB: z.coerce.number().int().min(1).default(2048),
    THEME_IMAGE_MAX_MB: z.coerce.number().int().min(1).max(100).default(10),
    THEME_VIDEO_MAX_MB: z.coerce.number().int().min(1).max(2000).default(50),
    FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
    PDFTOPPM_PATH: z.string().min(1).default('pdftoppm'),
    COUNTRY_HEADER: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .optional(),
    OIDC_PROVIDERS: OidcProvidersSetting.optional(),
    OIDC_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
    // Slow clients and the metrics listener (docs/configuration.md, "Clients, proxies and slow connections").
    BODY_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(64),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    METRICS_PORT: z
      .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)])
      .default(DEFAULT_METRICS_PORT),
    ...BillingEnv,
  })
  // Runs even when other settings are invalid, so one error message lists every problem.
  .superRefine(
    (env, ctx) => {
      for (const problem of billingProblems(env))
        ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
      const dkim = [env.DKIM_DOMAIN, env.DKIM_SELECTOR, env.DKIM_PRIVATE_KEY];
      if (dkim.some(Boolean) && !dkim.every(Boolean))
        for (const name of ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const)
          if (!env[name])
            ctx.addIssue({ code: 'custom', path: [name], message: 'DKIM needs all three DKIM_* settings' });
      if (env.DKIM_PRIVATE_KEY && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem(env.DKIM_PRIVATE_KEY)))
        ctx.addIssue({ code: 'custom', path: ['DKIM_PRIVATE_KEY'], message: 'must be a PEM private key' });
      // A provider that POSTs its answer back (Apple) only gets the sign-in cookie with SameSite=None; Secure.
      const posting = Array.isArray(env.OIDC_PROVIDERS)
        ? env.OIDC_PROVIDERS.filter((p) => p.responseMode === 'form_post')
        : [];
      if (posting.length > 0 && !env.PUBLIC_URL?.startsWith('https://'))
        ctx.addIssue({
          code: 'custom',
          path: ['OIDC_PROVIDERS', posting[0]!.name],
          message: 'needs PUBLIC_URL to be an https:// address (the provider posts its answer back)',
        });
      if (env.STORAGE_ENCRYPTION_KEY_FILE) {
        const key = readEncryptionKey(env.STORAGE_ENCRYPTION_KEY_FILE, env.DATA_DIR);
        if (typeof key === 'string')
          ctx.addIssue({ code: 'custom', path: ['STORAGE_ENCRYPTION_KEY_FILE'], message: key });
      }
      if (env.CLAMD_SOCKET && env.CLAMD_HOST)
        ctx.addIssue({
          code: 'custom',
          path: ['CLAMD_HOST'],
          message: 'set CLAMD_SOCKET or CLAMD_HOST, not both',
        });
      if (env.SCAN_POLICY && !env.CLAMD_SOCKET && !env.CLAMD_HOST)
        ctx.addIssue({
          code: 'custom',
          path: ['SCAN_POLICY'],
          message: 'needs clamd: set CLAMD_SOCKET, or CLAMD_HOST and CLAMD_PORT',
        });
      if (env.STORAGE !== 's3') {
        if (env.S3_REGIONS !== undefined)
          ctx.addIssue({ code: 'custom', path: ['S3_REGIONS'], message: 'needs STORAGE=s3' });
        return;
      }
      for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
        if (!env[name])
          ctx.addIssue({ code: 'custom', path: [name], message: 'is required when STORAGE=s3' });
      if (!env.SECRET_KEY && !env.SINGLE_INSTANCE)
        ctx.addIssue({
          code: 'custom',
          path: ['SECRET_KEY'],
          message:
            'is required with STORAGE=s3, so that every instance signs download links with the same key',
        });
      // Shared storage means several instances: their rate limits and upload locks must be shared too.
      if (!env.REDIS_URL && !env.SINGLE_INSTANCE)
        ctx.addIssue({
          code: 'custom',
          path: ['REDIS_URL'],
          message:
            'is required with STORAGE=s3 (the scale-out setup), so that every instance shares rate limits and upload locks; set SINGLE_INSTANCE=true to run one instance without Redis',
        });
    },
    { when: () => true },
  )
  .transform((env) => {
    const dataDir = path.resolve(env.DATA_DIR);
    const publicUrl = env.PUBLIC_URL?.replace(/\/+$/, '') ?? null;
    const publicHost = publicUrl ? new URL(publicUrl).hostname : null;
    // An address at the public host, else a placeholder that tells the operator what to set.
    const fromAddress =
      env.MAIL_FROM ?? `no-reply@${publicHost?.includes('.') ? publicHost : 'ferry.invalid'}`;
    return {
      nodeEnv: env.NODE_ENV,
      host: env.HOST,
      port: env.PORT,
      publicUrl,
      dataDir,
      databaseUrl: env.DATABASE_URL ?? null,
      secretKey: env.SECRET_KEY ?? null,
      productName: env.PRODUCT_NAME,
      /** The public site (site/public-site.ts). */
      site: {
        madeInCountry: env.MADE_IN_COUNTRY,
        analyticsScriptUrl: env.ANALYTICS_SCRIPT_URL ?? null,
        legal: {
          name: env.LEGAL_NAME ?? null,
          address: env.LEGAL_ADDRESS?.replace(/\\n/g, '\n') ?? null,
          registration: env.LEGAL_REGISTRATION ?? null,
          contact: env.LEGAL_CONTACT ?? null,
          host: env.LEGAL_HOST ?? null,
        },
      },
      apiTokenDailyQuota: env.API_TOKEN_DAILY_QUOTA,
      webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
      logLevel: env.LOG_LEVEL,
      trustProxy: env.TRUST_PROXY,
      /** Subdomains of BASE_DOMAIN and custom domains (services/host-directory.ts); null baseDomain: none. */
      hosts: { baseDomain: env.BASE_DOMAIN ?? null, dnsResolver: env.DNS_RESOLVER ?? null },
      webDist: path.resolve(env.WEB_DIST),
      downloadLinkTtlSeconds: env.DOWNLOAD_LINK_TTL_SECONDS,
      unfinishedUploadTtlHours: env.UNFINISHED_UPLOAD_TTL_HOURS,
      passwordAttempts: env.PASSWORD_ATTEMPTS_PER_WINDOW,
      passwordWindowSeconds: env.PASSWORD_ATTEMPT_WINDOW_SECONDS,
      /** Limits of anonymous transfer creation per client address (TransferService.limitAnonymous, CleanupService). */
      anonymous: {
        transfersPerWindow: env.ANONYMOUS_TRANSFERS_PER_WINDOW,
        windowSeconds: env.ANONYMOUS_TRANSFER_WINDOW_SECONDS,
        maxPendingBytes: Math.round(env.ANONYMOUS_PENDING_UPLOAD_GB * 1e9),
        unfinishedUploadTtlHours: env.ANONYMOUS_UNFINISHED_UPLOAD_TTL_HOURS,
      },
      /** Abuse reports, holds before delivery and retention (ModerationService, ModerationHold). */
      moderation: {
        retentionDays: env.RETENTION_DAYS,
        reportsToHold: env.MODERATION_REPORTS_TO_HOLD,
        holdS1Recipients: env.MODERATION_HOLD_S1_RECIPIENTS,
        holdWindowMinutes: env.MODERATION_HOLD_WINDOW_MINUTES,
      },
      shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
      /** How often free C heap memory goes back to the system (lib/heap-trim.ts); 0: never. */
      mallocTrimSeconds: env.MALLOC_TRIM_SECONDS,
      redisUrl: env.REDIS_URL ?? null,
      /** With a token, /metrics is also served on the main port to whoever sends it. */
      metricsToken: env.METRICS_TOKEN ?? null,
      /** The loopback listener of /metrics (no token asked); null with METRICS_PORT=off. */
      metricsListener: env.METRICS_PORT === 'off' ? null : { host: env.METRICS_HOST, port: env.METRICS_PORT },
      /** Slow or greedy clients (http/client-limits.ts); a cap of 0 means none. */
      clientLimits: {
        bodyIdleTimeoutMs: env.BODY_IDLE_TIMEOUT_SECONDS * 1000,
        maxConnectionsPerClient: env.MAX_CONNECTIONS_PER_CLIENT,
      },
      countryHeader: env.COUNTRY_HEADER ?? null,
      /** Operators, plans, payment providers, the seller on invoices (payments/config.ts). */
      billing: billingConfig(env, env.PRODUCT_NAME),
      /** Sign-in with OpenID Connect providers (auth/oidc.ts); none when OIDC_PROVIDERS is unset. */
      oidc: { providers: env.OIDC_PROVIDERS ?? [], timeoutSeconds: env.OIDC_TIMEOUT_SECONDS },
      /** Mail (see mail/index.ts): SMTP when smtpUrl is set, else .eml files in DATA_DIR/outbox. */
      mail: {
        smtpUrl: env.SMTP_URL ?? null,
        outboxDir: path.join(dataDir, 'outbox'),
        from: {
          address: fromAddress,
          name: env.MAIL_FROM_NAME ?? env.PRODUCT_NAME,
        },
        dkim:
          env.DKIM_DOMAIN && env.DKIM_SELECTOR && env.DKIM_PRIVATE_KEY
            ? {
                domainName: env.DKIM_DOMAIN,
                keySelector: env.DKIM_SELECTOR,
                privateKey: pem(env.DKIM_PRIVATE_KEY),
              }
            : null,
        ehloName: publicHost ?? undefined,
        /** Where the enterprise contact form (/register/enterprise) is mailed; the From address by default. */
        salesEmail: env.SALES_EMAIL ?? fromAddress,
        /** Where the general contact form (/contact) is mailed; the sales address (SALES_EMAIL) by default. */
        supportEmail: env.SUPPORT_EMAIL ?? env.SALES_EMAIL ?? fromAddress,
        socketTimeoutMs: Math.min(60_000, env.MAIL_ATTEMPT_TIMEOUT_SECONDS * 500),
        workers: env.MAIL_WORKERS,
        job: {
          retryLimit: env.MAIL_RETRY_LIMIT,
          retryDelaySeconds: env.MAIL_RETRY_DELAY_SECONDS,
          expireInSeconds: env.MAIL_ATTEMPT_TIMEOUT_SECONDS,
          staleAfterSeconds: env.MAIL_ATTEMPT_TIMEOUT_SECONDS * 3,
        },
      },
      notifications: {
        anonymousSenderVerification: env.ANONYMOUS_SENDER_VERIFICATION,
        verificationCodeTtlMinutes: env.VERIFICATION_CODE_TTL_MINUTES,
        downloadConfirmationDelaySeconds: env.DOWNLOAD_CONFIRMATION_DELAY_SECONDS,
        expiryReminderHours: env.EXPIRY_REMINDER_HOURS,
        maintenanceCron: env.MAINTENANCE_CRON,
      },
      jobMaintenanceSeconds: env.JOB_MAINTENANCE_SECONDS,
      /** Virus scanning (scan/): null without clamd, and then every file is not-scanned. */
      scan:
        env.CLAMD_SOCKET || env.CLAMD_HOST
          ? {
              clamd: env.CLAMD_SOCKET
                ? { socket: env.CLAMD_SOCKET }
                : { host: env.CLAMD_HOST!, port: env.CLAMD_PORT },
              policy: env.SCAN_POLICY ?? 'block',
              streamMaxBytes: env.CLAMD_STREAM_MAX_BYTES,
              timeoutSeconds: env.CLAMD_TIMEOUT_SECONDS,
              retryLimit: env.SCAN_RETRY_LIMIT,
              retryDelaySeconds: env.SCAN_RETRY_DELAY_SECONDS,
              workers: env.SCAN_WORKERS,
            }
          : null,
      /** Thumbnails and previews (services/preview*.ts): the per-transfer view limit, input cap, external tools. */
      previews: {
        perTransfer: env.PREVIEWS_PER_TRANSFER,
        /** A second origin (its own host name, pointing at Ferry) that serves renditions only; null: Ferry's own. */
        origin: env.PREVIEW_ORIGIN ? new URL(env.PREVIEW_ORIGIN).origin : null,
        maxInputBytes: env.PREVIEW_MAX_INPUT_MB * 1_000_000,
        ffmpegPath: env.FFMPEG_PATH,
        pdftoppmPath: env.PDFTOPPM_PATH,
      },
      /** Customization (services/customization.service.ts): the largest image and video an owner may upload. */
      theme: {
        imageMaxBytes: env.THEME_IMAGE_MAX_MB * 1_000_000,
        videoMaxBytes: env.THEME_VIDEO_MAX_MB * 1_000_000,
      },
      storage: env.STORAGE,
      /** The master key of encryption at rest (docs/encryption.md), or null: files stored as they are. */
      storageEncryptionKey: env.STORAGE_ENCRYPTION_KEY_FILE
        ? (readEncryptionKey(env.STORAGE_ENCRYPTION_KEY_FILE, env.DATA_DIR) as Buffer)
        : null,
      s3:
        env.STORAGE === 's3'
          ? {
              endpoint: env.S3_ENDPOINT ?? null,
              region: env.S3_REGION,
              bucket: env.S3_BUCKET!,
              accessKeyId: env.S3_ACCESS_KEY_ID!,
              secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: env.S3_FORCE_PATH_STYLE,
              partSizeBytes: env.S3_PART_SIZE_MB * 1024 * 1024,
              presignedDownloads: env.S3_PRESIGNED_DOWNLOADS,
              /** Further buckets by region name (spec §3 `forcedRegion`); endpoint and region default to the main ones. */
              regions: Object.fromEntries(
                Object.entries(env.S3_REGIONS ?? {}).map(([name, r]) => [
                  name,
                  {
                    bucket: r.bucket,
                    endpoint: r.endpoint ?? env.S3_ENDPOINT ?? null,
                    region: r.region ?? env.S3_REGION,
                  },
                ]),
              ),
            }
          : null,
    };
  });

/**
 * The master key from STORAGE_ENCRYPTION_KEY_FILE (`openssl rand -base64 32`), or what is wrong with the file. It
 * must live outside DATA_DIR: a backup or a stolen disk of DATA_DIR must not carry the key to its own files.
 */
function readEncryptionKey(file: string, dataDir: string): Buffer | string {
  const absolute = path.resolve(file);
  const relative = path.relative(path.resolve(dataDir), absolute);
  if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative)))
    return `must be outside DATA_DIR (${path.resolve(dataDir)}), or the key travels with the files it protects`;
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8').trim();
  } catch (error) {
    return `cannot be read: ${(error as Error).message}`;
  }
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== 32)
    return 'must hold 32 bytes in base64 (make one with `openssl rand -base64 32`)';
  return key;
}

/** A PEM given on one line (environment files) with literal "\n" between its lines. */
function pem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

export type Config = Readonly<z.output<typeof ConfigSchema>>;
export type S3Config = NonNullable<Config['s3']>;

export class ConfigError extends Error {}

/** Parses the environment once; on error lists every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(result.data);
}
