import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClockIcon } from '../../components/icons';
import { ApiError } from '../../lib/api';
import { formatDateTime, formatDuration } from '../../lib/format';

const DAY_MS = 86_400_000;
/** How often the page asks again once the moment passed and the server has not opened the transfer yet. */
export const OPENING_RETRY_MS = 5000;

/** When the transfer a NOT_YET_AVAILABLE answer is about opens; null for any other error. */
export function opensAt(error: unknown): Date | null {
  if (!(error instanceof ApiError) || !error.hasCode('NOT_YET_AVAILABLE')) return null;
  const at = typeof error.details.availableFrom === 'string' ? new Date(error.details.availableFrom) : null;
  return at && !Number.isNaN(at.getTime()) ? at : new Date();
}

/**
 * A transfer whose sender chose a later opening (spec §3 "from" date): when it opens, in the viewer's language and
 * time zone, with a live countdown under a day. When the moment passes it asks again (`onOpen`), and keeps asking
 * every few seconds until the server has opened it.
 */
export function NotYetAvailable({ at, onOpen }: { at: Date; onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const atMs = at.getTime();
  const left = atMs - now;
  const soon = left < DAY_MS;
  useEffect(() => {
    // A second's tick while the countdown shows; otherwise once, at the moment (timers top out near 24.8 days).
    const delay = left <= 0 ? OPENING_RETRY_MS : soon ? 1000 : Math.min(left - DAY_MS + 1000, 2 ** 31 - 1);
    const timer = setTimeout(() => {
      const current = Date.now();
      // The moment passed: ask again (the server opens it then), and again at each tick until it has.
      if (current >= atMs) onOpen();
      setNow(current);
    }, delay);
    return () => clearTimeout(timer);
  }, [left, soon, atMs, onOpen]);
  const passed = left <= 0;
  return (
    <section className="panel message-panel" aria-labelledby="opens-title" data-testid="download-opens">
      <h1 id="opens-title" className="panel-title">
        {t('downloader:opens_title')}
      </h1>
      <p>
        <ClockIcon width={16} height={16} />{' '}
        {t('downloader:opens_on', { date: formatDateTime(at, i18n.language) })}
      </p>
      {soon && (
        <p className="countdown" role="timer" aria-live="off" data-testid="download-countdown">
          {passed
            ? t('downloader:opens_now')
            : t('downloader:opens_in', { time: formatDuration(Math.ceil(left / 1000), i18n.language) })}
        </p>
      )}
    </section>
  );
}
