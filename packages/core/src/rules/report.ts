/* What an abuse report may say (api/moderation.ts builds its schemas from these), zod-free for the download page. */

/** Why a transfer is reported. */
export const REPORT_REASONS = ['malware', 'phishing', 'copyright', 'illegal', 'spam', 'other'] as const;

/** Longest free text of a report. */
export const REPORT_DETAILS_MAX = 2000;
