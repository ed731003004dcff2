/**
 * Runs in every test worker before the test files. FerryProcess hands the worker's whole environment to the
 * server it starts, so a Ferry setting left in the shell (DATABASE_URL, STORAGE, REDIS_URL, …) would silently
 * change what a test starts (an SMTP_URL left there would even mail real people): each test passes exactly the
 * settings it means. (NODE_ENV stays: vitest owns it and Ferry reads it for nothing.)
 */
const FERRY_SETTINGS =
  /^(HOST|PORT|PUBLIC_URL|DATA_DIR|DATABASE_URL|SECRET_KEY|PRODUCT_NAME|LOG_LEVEL|TRUST_PROXY|WEB_DIST|DOWNLOAD_LINK_TTL_SECONDS|UNFINISHED_UPLOAD_TTL_HOURS|PASSWORD_ATTEMPTS_PER_WINDOW|PASSWORD_ATTEMPT_WINDOW_SECONDS|SHUTDOWN_GRACE_SECONDS|STORAGE|S3_[A-Z_]+|REDIS_URL|METRICS_TOKEN|METRICS_HOST|METRICS_PORT|BODY_IDLE_TIMEOUT_SECONDS|MAX_CONNECTIONS_PER_CLIENT|SINGLE_INSTANCE|SMTP_URL|MAIL_[A-Z_]+|DKIM_[A-Z_]+|ANONYMOUS_SENDER_VERIFICATION|VERIFICATION_CODE_TTL_MINUTES|DOWNLOAD_CONFIRMATION_DELAY_SECONDS|EXPIRY_REMINDER_HOURS|MAINTENANCE_CRON)$/;

for (const name of Object.keys(process.env)) if (FERRY_SETTINGS.test(name)) delete process.env[name];
