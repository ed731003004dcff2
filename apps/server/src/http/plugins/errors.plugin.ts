import { STATUS_CODES } from 'node:http';
import { APP_ERROR_STATUS, type AppErrorCode, type ErrorBody } from '@ferry/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from '../../services/app-error.js';

/** Builds the spec §8 body for a code: `{status, error, message, codes}` plus limitErrors/details. */
export function errorBody(error: AppError): ErrorBody {
  const status = APP_ERROR_STATUS[error.code];
  return {
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message: error.message,
    codes: [error.code],
    ...(error.extra.limitErrors ? { limitErrors: error.extra.limitErrors } : {}),
    ...(error.extra.details ? { details: error.extra.details } : {}),
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
  if (status && status >= 400 && status < 500) {
    const code: AppErrorCode =
      status === 404 ? 'NOT_FOUND' : status === 429 ? 'RATE_LIMITED' : 'VALIDATION_FAILED';
    return new AppError(code, fastifyError.message);
  }
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
