import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Locker } from '@tus/utils';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { OidcSignIn } from './auth/oidc.js';
import { oidcRoutes } from './auth/oidc.routes.js';
import type { Config } from './config.js';
import { proxyTrust } from './http/client-address.js';
import { registerClientLimits } from './http/client-limits.js';
import { refuseApiHead } from './http/head-requests.js';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  registerErrorHandling,
} from './http/plugins/errors.plugin.js';
import { type CspSources, registerSecurityHeaders } from './http/plugins/security-headers.plugin.js';
import { registerTus } from './http/plugins/tus.plugin.js';
import { registerWeb } from './http/plugins/web.plugin.js';
import { authRoutes, registerAuthentication } from './http/routes/auth.routes.js';
import { contactsRoutes } from './http/routes/contacts.routes.js';
import { customizationRoutes } from './http/routes/customization.routes.js';
import { type DashboardServices, dashboardRoutes } from './http/routes/dashboard.routes.js';
import { downloadRoutes } from './http/routes/download.routes.js';
import { healthRoutes } from './http/routes/health.routes.js';
import { AUTH_REDIRECT_COOKIE, hostsRoutes, registerServedHost } from './http/routes/hosts.routes.js';
import { inboxRoutes } from './http/routes/inbox.routes.js';
import { invoiceRoutes } from './http/routes/invoice.routes.js';
import { limitsRoutes } from './http/routes/limits.routes.js';
import { linkPreviewRoutes } from './http/routes/link-preview.routes.js';
import { moderationRoutes } from './http/routes/moderation.routes.js';
import { operatorRoutes } from './http/routes/operator.routes.js';
import { operatorBillingRoutes } from './http/routes/operator-billing.routes.js';
import { opsRoutes } from './http/routes/ops.routes.js';
import { payRoutes } from './http/routes/pay.routes.js';
import { paymentWebhookRoutes } from './http/routes/payment-webhooks.routes.js';
import { previewRoutes } from './http/routes/preview.routes.js';
import { purchaseRoutes } from './http/routes/purchase.routes.js';
import { receiveRoutes } from './http/routes/receive.routes.js';
import { salesRoutes } from './http/routes/sales.routes.js';
import { securityLogRoutes } from './http/routes/security-log.routes.js';
import { teamMembersRoutes } from './http/routes/team-members.routes.js';
import { teamPolicyRoutes } from './http/routes/team-policy.routes.js';
import { teamTokenRoutes } from './http/routes/team-tokens.routes.js';
import { transferRoutes } from './http/routes/transfer.routes.js';
import { userRoutes } from './http/routes/user.routes.js';
import { webhookRoutes } from './http/routes/webhook.routes.js';
import { widgetScriptRoutes } from './http/routes/widget-script.routes.js';
import type { Metrics } from './observability/metrics.js';
import { type CardProviders, stripeCspSources } from './payments/card-providers.js';
import {
  type ProviderEventHandler,
  type ProviderEventLedger,
  ProviderWebhooks,
} from './payments/provider-events.js';
import type { AuthService } from './services/auth.service.js';
import type { ContactsService } from './services/contacts.service.js';
import type { CustomizationService } from './services/customization.service.js';
import type { DomainsService } from './services/domains.service.js';
import type { DownloadService } from './services/download.service.js';
import type { HostHandoffService } from './services/host-handoff.service.js';
import { belongsToHost, type HostDirectory } from './services/host-ports.js';
import type { InboxService } from './services/inbox.service.js';
import type { InvoiceService } from './services/invoice.service.js';
import type { LimitsService } from './services/limits.service.js';
import type { LinkPreviewService } from './services/link-preview.service.js';
import type { ModerationService } from './services/moderation.service.js';
import type { NotificationService } from './services/notification.service.js';
import type { OperatorService } from './services/operator.service.js';
import type { OperatorAccess } from './services/operator-access.js';
import type { OperatorBillingService } from './services/operator-billing.service.js';
import type { PreviewService } from './services/preview.service.js';
import type { PurchaseService } from './services/purchase.service.js';
import type { ReceiveService } from './services/receive.service.js';
import type { ReceiveRequestService } from './services/receive-request.service.js';
import type { SalesService } from './services/sales.service.js';
import type { SecurityLog } from './services/security-log.js';
import type { SecurityLogAdminService } from './services/security-log-admin.service.js';
import type { SubscriptionService } from './services/subscription.service.js';
import type { TaxService } from './services/tax.service.js';
import type { TeamAdminService } from './services/team-admin.service.js';
import type { TeamMembersService } from './services/team-members.service.js';
import type { TeamPolicyService } from './services/team-policy.js';
import type { TeamTokenService } from './services/team-tokens.service.js';
import type { TransferService } from './services/transfer.service.js';
import type { UserService } from './services/user.service.js';
import type { WebhookService } from './services/webhook.service.js';
import { PublicSite } from './site/public-site.js';
import type { HashingDataStore } from './storage/hashing-store.js';

export interface AppDeps {
  config: Config;
  metrics: Metrics;
  /** Checks each peer this instance needs (database, storage, Redis); throws or rejects when one is down. */
  readiness: Record<string, () => Promise<void>>;
  /** The tus upload locker: in process by default, Redis when scaled out. */
  uploadLocker?: Locker;
  logger: Logger;
  version: string;
  transfers: TransferService;
  /** The signed-in user's transfers: list, detail, changes, clones, added files (/dashboard/transfers). */
  dashboard: DashboardServices;
  /** Download pages' link previews (Open Graph) and the owner's choice of them. */
  linkPreviews: LinkPreviewService;
  downloads: DownloadService;
  /** Thumbnails and in-page previews (thumbnail-links, rendition URLs). */
  previews: PreviewService;
  notifications: NotificationService;
  auth: AuthService;
  /** Sign-in with the OpenID Connect providers of OIDC_PROVIDERS (none: the routes list none). */
  oidc: OidcSignIn;
  limits: LimitsService;
  users: UserService;
  /** Team members and invitations. */
  teamMembers: TeamMembersService;
  /** Teams' authentication policies (allowed domains, required second factor, sign-in methods). */
  teamPolicies: TeamPolicyService;
  /** The team admin overview (seats, storage, 7-day bytes, 30 days of activity). */
  teamAdmin: TeamAdminService;
  /** Team tokens, made by a team's manager. */
  teamTokens: TeamTokenService;
  /** The signed-in user's address book and contact groups. */
  contacts: ContactsService;
  /** Themes of accounts and teams (spec §3 Theme), their assets and the theme each host shows. */
  customization: CustomizationService;
  sales: SalesService;
  /** Who may use the operator console (OPERATOR_EMAILS). */
  operators: OperatorAccess;
  /** Teams' security logs (the admin console lists and exports them). */
  securityLog: SecurityLog;
  /** Teams' security logs as the admin console and `ferry team logs` read them, and their retention. */
  securityLogs: SecurityLogAdminService;
  /** Webhooks of users and teams, their deliveries and replays. */
  webhooks: WebhookService;
  /** EU VAT decisions (GET /api/pay/subscriptions/tax-rates). */
  taxes: TaxService;
  /** Invoices: the owner's list and PDFs, the operators' list, mark-paid and void. */
  invoices: InvoiceService;
  /** Plans on sale, subscriptions, billing customers (/api/pay/…). */
  subscriptions: SubscriptionService;
  /** The operators' plan routes: set a plan, list subscriptions. */
  operatorBilling: OperatorBillingService;
  /** Buying priced transfers (selling files). */
  purchases: PurchaseService;
  /** The operator console's API (/api/operator/…). */
  operatorConsole: OperatorService;
  /** Abuse reports and the operators' moderation queue. */
  moderation: ModerationService;
  /** Receiving files (S3): requests, public receive pages, uploads into them. */
  receive: ReceiveService;
  /** File requests (/request-files) for their owner. */
  receiveRequests: ReceiveRequestService;
  /** Upload inboxes and their widgets. */
  inboxes: InboxService;
  uploadStore: HashingDataStore;
  /** The card providers of PAYMENT_PROVIDERS (STRIPE, PAYPAL), whose webhooks are received. */
  cardProviders: CardProviders;
  /** Where each provider event is marked processed, once across instances (provider_events). */
  providerEventLedger: ProviderEventLedger;
  /** Acts on verified provider events (the subscription service). */
  providerEvents: ProviderEventHandler;
  /** Ferry's table of verified hosts (subdomains, custom domains); MAIN_HOST_ONLY without BASE_DOMAIN. */
  hosts: HostDirectory;
  /** Owners' subdomains and custom domains, the TLS ask, the daily re-check. */
  domains: DomainsService;
  /** The cross-domain sign-in hand-off (spec §4). */
  handoffs: HostHandoffService;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Redacts secrets that the spec puts in query strings (password, userSecret) from logged URLs. */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:password|userSecret)=)[^&]*/gi, '$1[redacted]')
    .replace(/(\/(?:blob|renditions)\/)[^/?]+/, '$1[token]');
}

/**
 * The origin of the links Ferry stores or sends: PUBLIC_URL, else http://localhost:PORT (the port it listens on when
 * PORT is 0) — never anything a request says.
 */
export function publicOriginOf(config: Pick<Config, 'publicUrl' | 'port'>, server?: Server): string {
  if (config.publicUrl) return config.publicUrl;
  const bound = server?.address();
  const port = config.port || (bound && typeof bound === 'object' ? bound.port : config.port);
  return `http://localhost:${port}`;
}

/**
 * The origin of an owner's verified host: `https://{host}`, or with PUBLIC_URL's scheme and port when it has them
 * (http://… in development and tests).
 */
export function hostOriginOf(
  config: Pick<Config, 'publicUrl' | 'port'>,
  host: string,
  server?: Server,
): string {
  const base = new URL(publicOriginOf(config, server));
  return `${base.protocol}//${host}${base.port ? `:${base.port}` : ''}`;
}

/** The audience script's origin joins the page's allowed scripts and connections (it loads only after consent). */
function withAnalytics(sources: CspSources, scriptUrl: string | null): CspSources {
  if (!scriptUrl) return sources;
  const origin = new URL(scriptUrl).origin;
  return { ...sources, script: [...sources.script, origin], connect: [...sources.connect, origin] };
}

/**
 * The preview origin's host answers rendition URLs and nothing else: no page, no API call, no upload is ever served
 * from there, and nothing from there is served on Ferry's own origin.
 */
function servePreviewOriginOnly(app: FastifyInstance, origin: string): void {
  const host = new URL(origin).host.toLowerCase();
  app.addHook('onRequest', async (request, reply) => {
    if (request.host.toLowerCase() !== host) return;
    if (request.url.startsWith('/api/transfer/downloads/renditions/')) return;
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
  });
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** Builds the HTTP app from ready services; main.ts and every HTTP test call this. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // A function, not a hop count: Fastify ignores X-Forwarded-For when given a bare number.
    trustProxy: config.trustProxy === false ? false : trust,
    bodyLimit: 8 * 1024 * 1024,
    routerOptions: { maxParamLength: 2048 },
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    requestTimeout: 0,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  refuseApiHead(app as unknown as FastifyInstance);
  registerServedHost(app as unknown as FastifyInstance, deps.hosts);
  registerClientLimits(app as unknown as FastifyInstance, trust, config.clientLimits, deps.metrics);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // API answers are never kept by browsers or proxies: a transfer disabled then enabled again, a count, a
    // session must be asked anew. Set on the raw response too, so answers written past Fastify (tus) carry it.
    if (isApi(request.url)) reply.raw.setHeader('Cache-Control', 'no-store');
  });
  app.addHook('onSend', async (request, reply) => {
    // Only an answer meant to be cached (a downloaded blob) sets its own header; an error never is.
    if (isApi(request.url) && (reply.statusCode >= 400 || !reply.hasHeader('Cache-Control')))
      reply.header('Cache-Control', 'no-store');
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    deps.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  registerErrorHandling(app);
  const secure = config.publicUrl?.startsWith('https:') ?? false;
  const csp = {
    ...withAnalytics(stripeCspSources(config.billing.stripe), config.site.analyticsScriptUrl),
    media: config.previews.origin ? [config.previews.origin] : [],
  };
  if (config.previews.origin)
    servePreviewOriginOnly(app as unknown as FastifyInstance, config.previews.origin);
  registerSecurityHeaders(app, secure, csp);
  await registerAuthentication(app, deps.auth, secure, config.publicUrl ?? null);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${config.productName} API`,
        version: deps.version,
        description:
          'Large-file transfers: send by link (S2), download, resumable tus uploads. See docs/api.md.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Links Ferry stores or sends to someone else (mails, transfer and request links, widget snippets) start with
  // the public origin, which comes from config alone: a forged Host header must not send a reset token elsewhere.
  const publicOrigin = () => publicOriginOf(config, app.server);
  // Answers only the caller follows (a download URL, the sign-in provider's way back) may use the caller's origin.
  const callerOrigin = (host: string, protocol: string) => config.publicUrl ?? `${protocol}://${host}`;
  await app.register(healthRoutes(deps.version));
  await app.register(opsRoutes(deps.metrics, deps.readiness, config.metricsToken));
  await app.register(authRoutes(deps.auth, publicOrigin, secure, config.publicUrl ?? null, deps.handoffs));
  await app.register(hostsRoutes(deps.domains, deps.hosts, (host) => hostOriginOf(config, host, app.server)));
  await app.register(oidcRoutes(deps.oidc, deps.auth, callerOrigin, secure));
  await app.register(limitsRoutes(deps.limits));
  await app.register(securityLogRoutes(deps.securityLogs));
  await app.register(webhookRoutes(deps.webhooks));
  await app.register(userRoutes(deps.users));
  await app.register(teamMembersRoutes(deps.teamMembers, publicOrigin));
  await app.register(teamPolicyRoutes(deps.teamPolicies, deps.auth, deps.teamAdmin, publicOrigin));
  await app.register(teamTokenRoutes(deps.teamTokens));
  await app.register(contactsRoutes(deps.contacts));
  await app.register(customizationRoutes(deps.customization));
  await app.register(salesRoutes(deps.sales));
  await app.register(invoiceRoutes(deps.invoices, deps.taxes));
  await app.register(payRoutes(deps.subscriptions));
  await app.register(operatorBillingRoutes(deps.operatorBilling));
  await app.register(operatorRoutes(deps.operatorConsole));
  await app.register(moderationRoutes(deps.moderation));
  await app.register(purchaseRoutes(deps.purchases));
  // A transfer or request made on an owner's verified host keeps that host: its links and mails use it.
  const linkOrigin = (request?: FastifyRequest) =>
    request?.servedHost ? hostOriginOf(config, request.servedHost.host, app.server) : publicOrigin();
  // …when its sender belongs to the host's owner; anyone else's transfer goes out on the main host.
  const senderOrigin = (request?: FastifyRequest) =>
    request && belongsToHost(request.servedHost, request.auth?.user) ? linkOrigin(request) : publicOrigin();
  await app.register(transferRoutes(deps.transfers, deps.notifications, senderOrigin));
  await app.register(dashboardRoutes(deps.dashboard, publicOrigin));
  await app.register(linkPreviewRoutes(deps.linkPreviews));
  await app.register(downloadRoutes(deps.downloads, callerOrigin, deps.metrics));
  await app.register(previewRoutes(deps.previews, callerOrigin, config.previews.origin !== null));
  await app.register(receiveRoutes(deps.receive, deps.receiveRequests, linkOrigin));
  await app.register(inboxRoutes(deps.inboxes, publicOrigin));
  await app.register(widgetScriptRoutes);
  await app.register(
    paymentWebhookRoutes(
      new ProviderWebhooks(
        deps.cardProviders,
        deps.providerEventLedger,
        deps.providerEvents,
        deps.logger.child({ component: 'payment-webhooks' }),
      ),
    ),
  );
  registerTus(app, deps.uploadStore, deps.transfers, deps.metrics, deps.uploadLocker);
  const site = new PublicSite({
    // Read when a page is drawn: with PORT=0 the local origin is known only once the server listens.
    get origin() {
      return publicOrigin();
    },
    productName: config.productName,
    madeInCountry: config.site.madeInCountry,
    analyticsScriptUrl: config.site.analyticsScriptUrl,
    legal: config.site.legal,
    catalogue: () => deps.subscriptions.catalogueOf(),
  });
  await registerWeb(app, {
    webDist: config.webDist,
    site,
    mainHost: config.publicUrl ? new URL(config.publicUrl).hostname.toLowerCase() : null,
    csp,
    linkPreviews: deps.linkPreviews,
    homeOf: async (request) => {
      const remembered = request.servedHost ? undefined : request.cookies[AUTH_REDIRECT_COOKIE];
      const home = remembered ? await deps.hosts.ownerOf(remembered) : null;
      return home ? hostOriginOf(config, home.host, app.server) : null;
    },
  });
  return app as unknown as FastifyInstance;
}
