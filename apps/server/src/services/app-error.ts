import type { AppErrorCode, LimitError } from '@ferry/core';

/** The one error services throw; the HTTP layer maps its code to a status and the spec §8 body. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly extra: {
      limitErrors?: LimitError[];
      details?: Record<string, unknown>;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}
