import { STATUS_CODES } from 'node:http';
import { APP_ERROR_STATUS, type AppErrorCode, type ErrorBody } from '@ferry/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from '../../services/app-error.js';

/** Framework refusals (a body over the limit, a content type no route parses…): their own §8 codes. */
const BY_STATUS: Record<number, AppErrorCode> = {
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

/** Builds the spec §8 body for a code: `{status, error, message, codes}` plus limitErrors/details. */
export function errorBody(error: AppError): ErrorBody {
  const status = APP_ERROR_STATUS[error.code];
  return {
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message: error.message,
    codes: [error.code],
    ...(error.extra.limitErrors ? { limitErrors: error.extra.limitErrors } : {}),
    ...(error.extra.details || error.extra.retryAfterSeconds !== undefined
      ? {
          details: {
            ...error.extra.details,
            // Also in the Retry-After header; in the body for clients that only read JSON.
            ...(error.extra.retryAfterSeconds !== undefined
              ? { retryAfterSeconds: error.extra.retryAfterSeconds }
              : {}),
          },
        }
      : {}),
  };
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    return new AppError('VALIDATION_FAILED', 'The request is not valid.', {
      details: { issues: error.issues },
    });
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    return new AppError('VALIDATION_FAILED', 'The request is not valid.', {
      details: { issues: fastifyError.validation.map((v) => ({ path: v.instancePath, message: v.message })) },
    });
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500)
    return new AppError(BY_STATUS[status] ?? 'VALIDATION_FAILED', fastifyError.message);
  return new AppError('INTERNAL', 'Something went wrong on our side.');
}

/** One place maps every thrown error to its HTTP status and body. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    const body = errorBody(appError);
    if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    if (appError.extra.retryAfterSeconds)
      void reply.header('Retry-After', String(appError.extra.retryAfterSeconds));
    return reply.status(body.status).type('application/json').send(body);
  });
}

/**
 * Errors Fastify raises before any route runs (a malformed URL, a parameter over the length limit): the same
 * spec §8 body as every other error.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const body = errorBody(toAppError(error));
  // No onSend hook runs for these: an error is never to be stored, whatever the path.
  void reply.status(body.status).type('application/json').header('Cache-Control', 'no-store').send(body);
}

/** Requests the HTTP parser refuses (headers too large, garbage): answered in the §8 shape, then closed. */
export function clientErrorHandler(
  error: Error & { code?: string },
  socket: import('node:net').Socket,
): void {
  if (!socket.writable) return void socket.destroy();
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(
    errorBody(
      new AppError(
        status === 431 ? 'HEADERS_TOO_LARGE' : 'VALIDATION_FAILED',
        'The request could not be read.',
      ),
    ),
  );
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
