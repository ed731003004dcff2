import { useTranslation } from 'react-i18next';
import { MOBILE_QUERY, useMediaQuery } from '../../../components/slide-panel-media';
import { TransferCards, type TransferRowItem, TransferTable } from './transfer-rows';

/** The pages of a transfer list loaded so far (an infinite query of the user's or a team's list). */
export interface TransferListPages {
  data?: { pages: { items: TransferRowItem[]; total: number; totalIsCapped: boolean }[] };
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * What a transfer list shows once loaded: how many match, the words of an empty list, the rows (cards on a
 * phone), and "Load more" while there is a next page. Test ids `<testId>-total`, `-empty`, `-more`.
 */
export function TransferListResults({
  list,
  emptyText,
  team,
  testId,
}: {
  list: TransferListPages;
  emptyText: string;
  /** A team's list: each row names its owner. */
  team?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const first = list.data?.pages[0];
  return (
    <>
      {first && (
        <p className="muted" role="status" data-testid={`${testId}-total`}>
          {t(first.totalIsCapped ? 'account:transfers.total_capped' : 'account:transfers.total', {
            count: first.total,
          })}
        </p>
      )}
      {list.data && items.length === 0 && (
        <p className="transfers-empty" data-testid={`${testId}-empty`}>
          {emptyText}
        </p>
      )}
      {items.length > 0 &&
        (mobile ? <TransferCards items={items} team={team} /> : <TransferTable items={items} team={team} />)}
      {list.hasNextPage && (
        <button
          type="button"
          className="button button-secondary transfers-more"
          data-testid={`${testId}-more`}
          disabled={list.isFetchingNextPage}
          aria-busy={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? t('account:loading') : t('account:transfers.load_more')}
        </button>
      )}
    </>
  );
}
