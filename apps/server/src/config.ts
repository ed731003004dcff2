import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

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
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: bool.default(false),
    WEB_DIST: z.string().default(defaultWebDist),
    DOWNLOAD_LINK_TTL_SECONDS: z.coerce.number().int().min(60).default(86_400),
    UNFINISHED_UPLOAD_TTL_HOURS: z.coerce.number().int().min(1).default(72),
    PASSWORD_ATTEMPTS_PER_WINDOW: z.coerce.number().int().min(1).default(10),
    PASSWORD_ATTEMPT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).default(25),
  })
  .transform((env) => {
    const dataDir = path.resolve(env.DATA_DIR);
    return {
      nodeEnv: env.NODE_ENV,
      host: env.HOST,
      port: env.PORT,
      publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
      dataDir,
      databaseUrl: env.DATABASE_URL ?? null,
      secretKey: env.SECRET_KEY ?? null,
      productName: env.PRODUCT_NAME,
      logLevel: env.LOG_LEVEL,
      trustProxy: env.TRUST_PROXY,
      webDist: path.resolve(env.WEB_DIST),
      downloadLinkTtlSeconds: env.DOWNLOAD_LINK_TTL_SECONDS,
      unfinishedUploadTtlHours: env.UNFINISHED_UPLOAD_TTL_HOURS,
      passwordAttempts: env.PASSWORD_ATTEMPTS_PER_WINDOW,
      passwordWindowSeconds: env.PASSWORD_ATTEMPT_WINDOW_SECONDS,
      shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    };
  });

export type Config = Readonly<z.output<typeof ConfigSchema>>;

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
