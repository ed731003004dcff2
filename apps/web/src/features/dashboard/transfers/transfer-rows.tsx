import { formatSize, type TransferListItem } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { displayTransferName } from './transfer-labels';

function useRowText(item: TransferListItem) {
  const { t, i18n } = useTranslation();
  const name = displayTransferName(item.name);
  return {
    name: name ?? t('account:transfers.untitled', { count: item.fileCount }),
    fullName: item.name ?? undefined,
    type: t(`account:transfers.type_${item.type}`),
    status: t(`account:transfers.status_${item.statusLabel}`, { defaultValue: item.statusLabel }),
    size: formatSize(item.totalSize),
    expiry: item.expired
      ? t('account:transfers.expired')
      : t('account:transfers.expires_on', { date: formatDate(item.expiresAt, i18n.language) }),
    activity:
      item.direction === 'received'
        ? item.senderEmail && !item.senderEmailVerified
          ? t('account:transfers.from_unverified', { email: item.senderEmail })
          : t('account:transfers.from', { email: item.senderEmail ?? t('account:unknown') })
        : [
            t('account:transfers.downloads', { count: item.downloadCount ?? 0 }),
            item.recipientCount !== null && item.type === 'S1'
              ? t('account:transfers.recipients', { count: item.recipientCount })
              : null,
          ]
            .filter(Boolean)
            .join(' · '),
  };
}

function NameLink({ item, text }: { item: TransferListItem; text: ReturnType<typeof useRowText> }) {
  // A transfer sent to the user is its sender's to manage: its name opens the user's own download link. Files
  // received through a request, an inbox or a widget (S3) are the user's own: their name opens the detail.
  if (item.direction === 'received' && item.type !== 'S3') {
    return (
      <a href={item.link} title={text.fullName} data-testid="transfer-name">
        {text.name}
      </a>
    );
  }
  return (
    <Link to={`/dashboard/transfers/${item.id}`} title={text.fullName} data-testid="transfer-name">
      {text.name}
    </Link>
  );
}

function TableRow({ item }: { item: TransferListItem }) {
  const text = useRowText(item);
  return (
    <tr data-testid="transfer-row" data-expired={item.expired}>
      <td>
        <NameLink item={item} text={text} />
      </td>
      <td>{text.type}</td>
      <td>
        <span className="status-label" data-status={item.status} data-testid="transfer-status">
          {text.status}
        </span>
      </td>
      <td data-testid="transfer-size">{text.size}</td>
      <td data-testid="transfer-expiry">{text.expiry}</td>
      <td data-testid="transfer-activity">{text.activity}</td>
    </tr>
  );
}

/** Wide screens: a table with a column per fact. */
export function TransferTable({ items }: { items: TransferListItem[] }) {
  const { t } = useTranslation();
  return (
    <table className="transfer-table" data-testid="transfer-table">
      <thead>
        <tr>
          <th scope="col">{t('account:transfers.col_name')}</th>
          <th scope="col">{t('account:transfers.col_type')}</th>
          <th scope="col">{t('account:transfers.col_status')}</th>
          <th scope="col">{t('account:transfers.col_size')}</th>
          <th scope="col">{t('account:transfers.col_expiry')}</th>
          <th scope="col">{t('account:transfers.col_activity')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <TableRow key={item.id} item={item} />
        ))}
      </tbody>
    </table>
  );
}

function Card({ item }: { item: TransferListItem }) {
  const text = useRowText(item);
  return (
    <li className="transfer-card" data-testid="transfer-row" data-expired={item.expired}>
      <p className="transfer-card-title">
        <NameLink item={item} text={text} />
        <span className="status-label" data-status={item.status} data-testid="transfer-status">
          {text.status}
        </span>
      </p>
      <p className="muted">
        {text.type} · <span data-testid="transfer-size">{text.size}</span>
      </p>
      <p className="muted" data-testid="transfer-expiry">
        {text.expiry}
      </p>
      <p className="muted" data-testid="transfer-activity">
        {text.activity}
      </p>
    </li>
  );
}

/** Phones (spec §9): one card per transfer, no sideways scrolling. */
export function TransferCards({ items }: { items: TransferListItem[] }) {
  return (
    <ul className="transfer-cards" data-testid="transfer-cards">
      {items.map((item) => (
        <Card key={item.id} item={item} />
      ))}
    </ul>
  );
}
