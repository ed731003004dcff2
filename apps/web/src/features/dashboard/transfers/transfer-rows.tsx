import { type TransferListItem, truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatSize } from '../../../lib/format';
import { displayTransferName } from './transfer-labels';

/**
 * A row of a list: the user's own (/dashboard/transfers), or a team's (/dashboard/admin/transfers), whose items
 * also name their owner and their first file.
 */
export type TransferRowItem = TransferListItem & { ownerEmail?: string; firstFileName?: string | null };

interface RowsProps {
  items: TransferRowItem[];
  /** A team's list: each row names its owner and when it was made. */
  team?: boolean;
}

const rowTestId = (team: boolean | undefined) => (team ? 'admin-transfer-row' : 'transfer-row');

function useRowText(item: TransferRowItem) {
  const { t, i18n } = useTranslation();
  // An untitled transfer goes by its first file when the list gives it (a team's list does).
  const name =
    displayTransferName(item.name) ?? (item.firstFileName ? truncateFileName(item.firstFileName) : null);
  return {
    name: name ?? t('account:transfers.untitled', { count: item.fileCount }),
    fullName: item.name ?? item.firstFileName ?? undefined,
    created: formatDate(item.createdAt, i18n.language),
    type: t(`account:transfers.type_${item.type}`),
    status: t(`account:transfers.status_${item.statusLabel}`, { defaultValue: item.statusLabel }),
    size: formatSize(item.totalSize, i18n.language),
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

function NameLink({ item, text }: { item: TransferRowItem; text: ReturnType<typeof useRowText> }) {
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

function TableRow({ item, team }: { item: TransferRowItem; team?: boolean }) {
  const text = useRowText(item);
  return (
    <tr data-testid={rowTestId(team)} data-expired={item.expired}>
      <td>
        <NameLink item={item} text={text} />
      </td>
      {team && <td data-testid="transfer-owner">{item.ownerEmail}</td>}
      <td>{text.type}</td>
      <td>
        <span className="status-label" data-status={item.status} data-testid="transfer-status">
          {text.status}
        </span>
      </td>
      <td data-testid="transfer-size">{text.size}</td>
      {team && <td data-testid="transfer-created">{text.created}</td>}
      <td data-testid="transfer-expiry">{text.expiry}</td>
      <td data-testid="transfer-activity">{text.activity}</td>
    </tr>
  );
}

/** Wide screens: a table with a column per fact. */
export function TransferTable({ items, team }: RowsProps) {
  const { t } = useTranslation();
  return (
    <table className="transfer-table" data-testid="transfer-table">
      <thead>
        <tr>
          <th scope="col">{t('account:transfers.col_name')}</th>
          {team && <th scope="col">{t('account:transfers.col_owner')}</th>}
          <th scope="col">{t('account:transfers.col_type')}</th>
          <th scope="col">{t('account:transfers.col_status')}</th>
          <th scope="col">{t('account:transfers.col_size')}</th>
          {team && <th scope="col">{t('account:transfers.col_created')}</th>}
          <th scope="col">{t('account:transfers.col_expiry')}</th>
          <th scope="col">{t('account:transfers.col_activity')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <TableRow key={item.id} item={item} team={team} />
        ))}
      </tbody>
    </table>
  );
}

function Card({ item, team }: { item: TransferRowItem; team?: boolean }) {
  const { t } = useTranslation();
  const text = useRowText(item);
  return (
    <li className="transfer-card" data-testid={rowTestId(team)} data-expired={item.expired}>
      <p className="transfer-card-title">
        <NameLink item={item} text={text} />
        <span className="status-label" data-status={item.status} data-testid="transfer-status">
          {text.status}
        </span>
      </p>
      {team && (
        <p className="muted" data-testid="transfer-owner">
          {item.ownerEmail}
        </p>
      )}
      <p className="muted">
        {text.type} · <span data-testid="transfer-size">{text.size}</span>
        {team && (
          <>
            {' · '}
            <span data-testid="transfer-created">
              {t('account:transfers.created_on', { date: text.created })}
            </span>
          </>
        )}
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
export function TransferCards({ items, team }: RowsProps) {
  return (
    <ul className="transfer-cards" data-testid="transfer-cards">
      {items.map((item) => (
        <Card key={item.id} item={item} team={team} />
      ))}
    </ul>
  );
}
