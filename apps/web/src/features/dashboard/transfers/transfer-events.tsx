import type { TransferDetail, TransferEventView } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useAuth } from '../../auth/auth-context';

function useActor(transfer: Pick<TransferDetail, 'type'>) {
  const { t } = useTranslation();
  const { state } = useAuth();
  return (actor: TransferEventView['actor']): string => {
    if (actor.kind === 'user' && actor.userId !== null && actor.userId === state.user?.uid) {
      return t('account:transfer.actor_you');
    }
    // An address typed on a receive page (and, in older histories of received transfers, a "sender") was
    // never checked: never shown as fact.
    const unverified = actor.kind === 'uploader' || (actor.kind === 'sender' && transfer.type === 'S3');
    if (actor.email && unverified)
      return t('account:transfer.actor_email_unverified', { email: actor.email });
    if (actor.email) return actor.email;
    return t(`account:transfer.actor_${actor.kind}`);
  };
}

/** The transfer's history (spec §3 events), newest first, each as words with who and when. */
export function TransferEvents({ transfer }: { transfer: TransferDetail }) {
  const { t, i18n } = useTranslation();
  const actorName = useActor(transfer);
  const events = [...transfer.events].reverse();
  return (
    <section className="panel dashboard-card transfer-section" aria-labelledby="transfer-events-title">
      <h2 id="transfer-events-title" className="section-title">
        {t('account:transfer.events_title')}
      </h2>
      {events.length === 0 && <p className="muted">{t('account:transfer.events_none')}</p>}
      <ol className="transfer-list-plain">
        {events.map((event, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows; position is identity here
          <li key={index} data-testid="transfer-event">
            <strong>{t(`account:transfer.event.${event.type}`)}</strong>
            <span className="muted">
              {' · '}
              {actorName(event.actor)}
              {' · '}
              <time dateTime={event.at}>{formatDateTime(event.at, i18n.language)}</time>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
