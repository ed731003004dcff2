import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const s3 = { STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };

describe('configuration', () => {
  it('has working defaults for the embedded single box', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      storage: 'local',
      databaseUrl: null,
      redisUrl: null,
      s3: null,
      mallocTrimSeconds: 5,
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('turns the C heap trim off with 0 and refuses a negative interval', () => {
    expect(loadConfig({ MALLOC_TRIM_SECONDS: '0' }).mallocTrimSeconds).toBe(0);
    expect(loadConfig({ MALLOC_TRIM_SECONDS: '30' }).mallocTrimSeconds).toBe(30);
    expect(() => loadConfig({ MALLOC_TRIM_SECONDS: '-1' })).toThrow(/MALLOC_TRIM_SECONDS/);
  });

  it('refuses the scale-out setup without Redis and a shared secret, naming both at once', () => {
    expect(() => loadConfig(s3)).toThrow(/REDIS_URL: is required with STORAGE=s3 \(the scale-out setup\)/);
    expect(() => loadConfig(s3)).toThrow(/SECRET_KEY: is required with STORAGE=s3/);
    expect(() =>
      loadConfig({ ...s3, REDIS_URL: 'redis://127.0.0.1:6379', SECRET_KEY: 'x'.repeat(32) }),
    ).not.toThrow();
    expect(() => loadConfig({ ...s3, SINGLE_INSTANCE: 'true' })).not.toThrow();
  });

  it('scans with clamd only when it is configured, blocking by default', () => {
    expect(loadConfig({}).scan).toBeNull();
    expect(loadConfig({ CLAMD_SOCKET: '/run/clamav/clamd.ctl' }).scan).toMatchObject({
      clamd: { socket: '/run/clamav/clamd.ctl' },
      policy: 'block',
      streamMaxBytes: 25 * 1024 * 1024,
    });
    expect(loadConfig({ CLAMD_HOST: 'av', SCAN_POLICY: 'background' }).scan).toMatchObject({
      clamd: { host: 'av', port: 3310 },
      policy: 'background',
    });
    expect(() => loadConfig({ SCAN_POLICY: 'block' })).toThrow(/SCAN_POLICY: needs clamd/);
    expect(() => loadConfig({ CLAMD_SOCKET: '/s', CLAMD_HOST: 'av' })).toThrow(/CLAMD_HOST/);
    expect(() => loadConfig({ CLAMD_SOCKET: '/s', CLAMD_STREAM_MAX_BYTES: '5000000000' })).toThrow(
      /CLAMD_STREAM_MAX_BYTES/,
    );
  });

  it('lists every problem in one error', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'x', PUBLIC_URL: 'nope', LOG_LEVEL: 'loud' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT');
    expect(message).toContain('PUBLIC_URL');
    expect(message).toContain('LOG_LEVEL');
  });
});
