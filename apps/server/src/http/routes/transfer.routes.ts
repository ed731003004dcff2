import {
  ErrorBody,
  SenderVerificationRequest,
  SenderVerificationResendResponse,
  SenderVerificationResponse,
  TransferCompleteRequest,
  TransferCreateRequest,
  TransferCreateResponse,
  TransferEventList,
  TransferId,
  TransferNotificationsUpdate,
  TransferSummary,
  UnsubscribeResponse,
} from '@ferry/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { belongsToHost } from '../../services/host-ports.js';
import type { NotificationService } from '../../services/notification.service.js';
import type { Actor, TransferService } from '../../services/transfer.service.js';
import { notificationDefaults } from '../../services/user.service.js';

const UploadTokenHeaders = z.object({ 'x-upload-token': z.string().max(200).optional() });
const errors = {
  400: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
};
const TransferParams = z.object({ transferId: TransferId });

export const transferRoutes =
  (
    transfers: TransferService,
    notifications: NotificationService,
    /** Where links start: the verified host the request came to when the caller belongs to it, else the public origin. */
    publicOrigin: (request?: FastifyRequest) => string,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const actorOf = (r: FastifyRequest): Actor => ({
      userId: r.auth?.user.id ?? null,
      plan: r.auth?.planType ?? 'NONE',
      email: r.auth?.user.email,
      tokenId: r.auth?.tokenId ?? null,
      forcedFileValidityInDays: r.auth?.user.limitSettings.forcedFileValidityInDays ?? null,
      forcedRegion: r.auth?.user.limitSettings.forcedRegion ?? null,
      disableSSEC: r.auth?.user.limitSettings.disableSSEC ?? false,
      notificationDefaults: r.auth ? notificationDefaults(r.auth.user) : undefined,
      ip: r.ip,
      origin: publicOrigin(r),
      host: belongsToHost(r.servedHost, r.auth?.user) ? r.servedHost!.host : null,
    });

    app.post(
      '/api/transfer/transfers',
      {
        schema: {
          tags: ['transfers'],
          body: TransferCreateRequest,
          response: { 201: TransferCreateResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await transfers.create(request.body, actorOf(request))),
    );

    app.get(
      '/api/transfer/transfers/:transferId/upload-state',
      {
        schema: {
          tags: ['transfers'],
          params: z.object({ transferId: TransferId }),
          headers: UploadTokenHeaders,
          response: { 200: TransferSummary, ...errors },
        },
      },
      async (request) =>
        transfers.uploadState(
          request.params.transferId,
          request.headers['x-upload-token'],
          actorOf(request).origin,
        ),
    );

    app.get(
      '/api/transfer/transfers/:transferId/events',
      {
        schema: {
          tags: ['transfers'],
          params: TransferParams,
          headers: UploadTokenHeaders,
          response: { 200: TransferEventList, ...errors },
        },
      },
      async (request) =>
        transfers.history(request.params.transferId, request.headers['x-upload-token'], actorOf(request)),
    );

    app.post(
      '/api/transfer/transfers/:transferId/complete',
      {
        schema: {
          tags: ['transfers'],
          params: z.object({ transferId: TransferId }),
          headers: UploadTokenHeaders,
          body: TransferCompleteRequest,
          response: { 200: TransferSummary, ...errors },
        },
      },
      async (request) =>
        transfers.complete(
          request.params.transferId,
          request.headers['x-upload-token'],
          request.body.files ?? [],
          actorOf(request),
        ),
    );

    app.post(
      '/api/transfer/transfers/:transferId/sender-verification',
      {
        schema: {
          tags: ['transfers'],
          summary: "Proves the sender's e-mail address with the 6-digit code mailed to it",
          params: TransferParams,
          headers: UploadTokenHeaders,
          body: SenderVerificationRequest,
          response: { 200: SenderVerificationResponse, ...errors },
        },
      },
      async (request) =>
        transfers.verifySender(
          request.params.transferId,
          request.headers['x-upload-token'],
          request.body.code,
          actorOf(request),
        ),
    );

    app.post(
      '/api/transfer/transfers/:transferId/sender-verification/resend',
      {
        schema: {
          tags: ['transfers'],
          summary: 'Mails a new verification code (the previous one stops working)',
          params: TransferParams,
          headers: UploadTokenHeaders,
          response: { 202: SenderVerificationResendResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await transfers.resendSenderCode(
              request.params.transferId,
              request.headers['x-upload-token'],
              actorOf(request),
            ),
          ),
    );

    app.patch(
      '/api/transfer/transfers/:transferId/notifications',
      {
        schema: {
          tags: ['transfers'],
          summary:
            'Turns download confirmations, expiry reminders or the downloader e-mail requirement on or off',
          params: TransferParams,
          headers: UploadTokenHeaders,
          body: TransferNotificationsUpdate,
          response: { 200: TransferSummary, ...errors },
        },
      },
      async (request) =>
        transfers.updateNotifications(
          request.params.transferId,
          request.headers['x-upload-token'],
          request.body,
          actorOf(request),
        ),
    );

    // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` as a form; the web page POSTs nothing.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, body),
    );
    app.post(
      '/api/transfer/notifications/unsubscribe',
      {
        schema: {
          tags: ['transfers'],
          summary: "Turns off what an e-mail's unsubscribe link names",
          querystring: z.object({ token: z.string().min(1).max(2000) }),
          response: { 200: UnsubscribeResponse, ...errors },
        },
      },
      async (request) => notifications.unsubscribeWith(request.query.token),
    );
  };
