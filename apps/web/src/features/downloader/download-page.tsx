import { type DownloadFile, type DownloadInfo, isTransferId, isTransferRef } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ClockIcon, DownloadIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { withTexts } from '../../i18n/texts';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { formatDateTime, formatSize } from '../../lib/format';
import { openThroughHiddenLink } from '../../lib/hidden-download';
import { getDownloadInfo, getDownloadLink } from '../../lib/transfer-api';
import { usePageThemeLayers } from '../customization/theme-context';
import { downloadLayers } from '../customization/theme-layers';
import { useToast } from '../toasts/toast-context';
import { downloadErrorRoute, downloadNoticeKey, needsPassword } from './download-errors';
import { DownloadFileList } from './download-file-list';
import {
  DownloaderEmailForm,
  loadDownloaderEmail,
  needsDownloaderEmail,
  saveDownloaderEmail,
} from './downloader-email';
import { NotYetAvailable, opensAt } from './not-yet-available';
import { PasswordForm } from './password-form';
import { PreviewGallery } from './preview-gallery';
import { forgetPurchase, keepPurchaseToken, purchaseTokenOf } from './purchase-store';
import { ReportAbuse } from './report-abuse';

/** Buying a transfer on sale: its code (and Stripe.js) is loaded only for such a transfer. */
const PurchasePanel = lazy(withTexts(() => import('./purchase-panel')));

/** One code per page visit: every download started from this visit counts as one download of the transfer. */
const BROWSER_CODE = crypto.randomUUID();
let downloadOrder = 0;

/** How often the page asks again while the files are being scanned. */
const SCAN_POLL_MS = 5000;

const NOT_READY = new Set<DownloadInfo['status']>([
  'UPLOADING',
  'CLONING',
  'SCANNING',
  'MODERATING',
  'PENDING',
]);

function TransferDetails({
  info,
  password,
  userSecret,
  purchaseToken,
  highlightedId,
  onPasswordRejected,
  onPurchased,
}: {
  info: DownloadInfo;
  password: string | undefined;
  userSecret: string | undefined;
  purchaseToken: string | undefined;
  highlightedId: string | undefined;
  onPasswordRejected: () => void;
  onPurchased: (token: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // 'all' while the ZIP link is fetched, a file id while that file's link is.
  const [busy, setBusy] = useState<string | null>(null);
  const [downloaderEmail, setDownloaderEmail] = useState<string | null>(loadDownloaderEmail);
  const [emailRefused, setEmailRefused] = useState(false);
  const [changingEmail, setChangingEmail] = useState(false);
  const exhausted = info.downloadsLeft !== null && info.downloadsLeft <= 0;
  const highlighted = info.files.find((f) => f.id === highlightedId);
  // A recipient's personal link already says who downloads; anyone else must give an address first.
  const emailRequired = info.downloaderEmailRequired && !info.recipientEmail;
  const askEmail = emailRequired && (downloaderEmail === null || changingEmail || emailRefused);
  // On sale and not bought by this browser: the purchase comes first.
  const forSale = info.price !== null && !info.purchased;
  const blocked = exhausted || NOT_READY.has(info.status) || askEmail || forSale;

  const rememberEmail = (email: string) => {
    saveDownloaderEmail(email);
    setDownloaderEmail(email);
    setEmailRefused(false);
    setChangingEmail(false);
  };

  const download = async (file: DownloadFile | null) => {
    if (askEmail) return;
    setBusy(file ? file.id : 'all');
    try {
      downloadOrder += 1;
      const link = await getDownloadLink({
        transferId: info.transferId,
        fileId: file?.id,
        password,
        userSecret,
        purchaseToken,
        downloaderEmail: emailRequired ? (downloaderEmail ?? undefined) : undefined,
        browserCode: BROWSER_CODE,
        orderId: String(downloadOrder),
      });
      openThroughHiddenLink(link.url, link.fileName);
      toast.show(t('downloader:download_started', { name: link.fileName }), 'success');
    } catch (error) {
      const route = downloadErrorRoute(error);
      if (route) {
        void navigate(route, { replace: true });
        return;
      }
      if (needsDownloaderEmail(error)) {
        saveDownloaderEmail(null);
        setEmailRefused(true);
        toast.show(t('downloader:email_refused'), 'error');
        return;
      }
      if (needsPassword(error)) {
        toast.show(t('downloader:wrong_password'), 'error');
        onPasswordRejected();
        return;
      }
      const notice = downloadNoticeKey(error);
      toast.show(notice ? t(notice) : describe(error), 'error');
    } finally {
      setBusy(null);
      // downloadsLeft changed (or the transfer did): show the server's numbers.
      void queryClient.invalidateQueries({ queryKey: ['download-info', info.transferId] });
    }
  };

  return (
    <article className="download-card" aria-labelledby="download-title">
      <header className="download-header">
        <h1 id="download-title" className="download-title">
          {info.name ?? t('downloader:untitled', { count: info.fileCount })}
        </h1>
        {info.senderName && <p className="muted">{t('downloader:sent_by', { name: info.senderName })}</p>}
        {info.recipientEmail && (
          <p className="recipient-greeting" data-testid="recipient-greeting">
            {t('downloader:sent_to_you', { email: info.recipientEmail })}
          </p>
        )}
      </header>
      {info.message && (
        <blockquote className="download-message" data-testid="download-message">
          {info.message}
        </blockquote>
      )}
      <dl className="facts">
        <div>
          <dt>{t('downloader:files_count_label')}</dt>
          <dd data-testid="download-summary">
            {t('downloader:files_summary', {
              count: info.fileCount,
              size: formatSize(info.totalSize, i18n.language),
            })}
          </dd>
        </div>
        <div>
          <dt>{t('downloader:expires_label')}</dt>
          <dd>
            <ClockIcon width={16} height={16} /> {formatDateTime(info.expiresAt, i18n.language)}
          </dd>
        </div>
        {info.downloadsLeft !== null && (
          <div>
            <dt>{t('downloader:downloads_left_label')}</dt>
            <dd>{info.downloadsLeft}</dd>
          </div>
        )}
      </dl>
      {exhausted && (
        <p className="notice notice-error" role="alert">
          {t('downloader:too_many_dowloads')}
        </p>
      )}
      {NOT_READY.has(info.status) && (
        <p className="notice notice-warn" data-testid="download-not-ready">
          {/* Spec §2: a transfer under review is shown as pending. */}
          {t(
            info.status === 'MODERATING'
              ? 'downloader:under_review'
              : info.status === 'SCANNING'
                ? 'downloader:scanning'
                : 'downloader:not_ready',
          )}
        </p>
      )}
      {forSale && info.price && !NOT_READY.has(info.status) && (
        <Suspense fallback={<p className="muted">{t('downloader:loading')}</p>}>
          <PurchasePanel transferId={info.transferId} price={info.price} onPurchased={onPurchased} />
        </Suspense>
      )}
      {askEmail && (
        <DownloaderEmailForm
          initial={downloaderEmail ?? ''}
          refused={emailRefused}
          onSubmit={rememberEmail}
        />
      )}
      {emailRequired && !askEmail && downloaderEmail && (
        <p className="downloading-as" data-testid="downloading-as">
          <span>{t('downloader:downloading_as', { email: downloaderEmail })}</span>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => setChangingEmail(true)}
            data-testid="downloader-email-change"
          >
            {t('downloader:email_change')}
          </button>
        </p>
      )}
      {highlighted && (
        <section className="highlight" aria-label={t('downloader:highlight_label')}>
          <p>{t('downloader:highlight_text', { name: highlighted.relativePath ?? highlighted.name })}</p>
          <button
            type="button"
            className="button button-start"
            data-testid="download-highlighted"
            disabled={blocked || busy !== null || highlighted.scanStatus === 'infected'}
            onClick={() => void download(highlighted)}
          >
            <DownloadIcon /> {t('downloader:download_this_file')}
          </button>
        </section>
      )}
      {info.allowPreview && !NOT_READY.has(info.status) && info.files.length > 0 && (
        <PreviewGallery
          access={{ transferId: info.transferId, password, userSecret, purchaseToken }}
          files={info.files}
        />
      )}
      <DownloadFileList
        files={info.files}
        virusScan={info.virusScan}
        highlightedId={highlightedId}
        busyId={busy}
        disabled={blocked}
        onDownload={(file) => void download(file)}
      />
      <div className="panel-actions">
        <button
          type="button"
          className={`button ${highlighted ? 'button-secondary' : 'button-start'} button-block`}
          data-testid="download-all"
          disabled={blocked || busy !== null || info.files.length === 0}
          aria-busy={busy === 'all' || undefined}
          onClick={() => void download(null)}
        >
          <DownloadIcon /> {t('downloader:download_all')}
        </button>
      </div>
    </article>
  );
}

/** The download page at /dl/:transferId[/:fileId] (spec §1 link shape); the transfer may be named by its custom link. */
export function DownloadPage() {
  const { transferId = '', fileId } = useParams();
  // A recipient's personal link (S1): `/dl/{id}?userSecret=…`; it goes with every call of the page.
  const [search] = useSearchParams();
  const userSecret = search.get('userSecret') || undefined;
  // A buyer's personal link (`/dl/{id}?purchase=…`), else what this browser kept of a purchase.
  const purchaseFromLink = search.get('purchase') || undefined;
  const [purchaseToken, setPurchaseToken] = useState<string | undefined>(
    () => purchaseFromLink ?? purchaseTokenOf(transferId),
  );
  const { t } = useTranslation();
  const navigate = useNavigate();
  const describe = useDescribeError();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState<string | undefined>(undefined);
  const valid = transferId !== undefined && isTransferRef(transferId);
  const info = useQuery({
    queryKey: ['download-info', transferId, password ?? null, userSecret ?? null, purchaseToken ?? null],
    queryFn: ({ signal }) => getDownloadInfo({ transferId, password, userSecret, purchaseToken }, signal),
    enabled: valid,
    retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
    placeholderData: (previous) => previous,
    // While the virus scan runs, ask again now and then: the files become downloadable without a reload.
    refetchInterval: (query) => {
      const data = query.state.data;
      const scanning =
        data?.status === 'SCANNING' || data?.files.some((f) => f.scanStatus === 'pending') === true;
      return scanning ? SCAN_POLL_MS : false;
    },
  });
  // The sender's branding (their theme, this transfer's colours and wallpaper) while the page is shown.
  usePageThemeLayers(downloadLayers(info.data));

  const route = info.error ? downloadErrorRoute(info.error) : null;
  useEffect(() => {
    if (route) void navigate(route, { replace: true });
  }, [route, navigate]);
  useEffect(() => {
    if (info.error && needsPassword(info.error)) setPassword(undefined);
  }, [info.error]);
  // Keep a token that unlocks; forget one the server no longer takes.
  // (Not from the previous answer shown while the new one loads: that one was asked without this token.)
  const unlocked = info.data?.price && !info.isPlaceholderData ? info.data.purchased : null;
  useEffect(() => {
    if (!purchaseToken || unlocked === null) return;
    if (unlocked) keepPurchaseToken(transferId, purchaseToken);
    else {
      forgetPurchase(transferId);
      setPurchaseToken(undefined);
    }
  }, [purchaseToken, unlocked, transferId]);
  const refetch = info.refetch;
  const reopen = useCallback(() => void refetch(), [refetch]);
  // Reports name the transfer by its id: known once the info answered, or when the link is the id itself.
  const reportId =
    info.data?.transferId ?? (transferId !== undefined && isTransferId(transferId) ? transferId : null);

  if (!valid) return <Navigate to="/d/notfound" replace />;
  const title = <title>{t('downloader:page_title', { product: PRODUCT_NAME })}</title>;
  if (info.isPending || route) {
    return (
      <div className="page-center" aria-busy="true">
        {title}
        <p className="muted">{t('downloader:loading')}</p>
      </div>
    );
  }
  const opens = opensAt(info.error);
  if (opens) {
    return (
      <div className="page-center">
        {title}
        <NotYetAvailable at={opens} onOpen={reopen} />
      </div>
    );
  }
  if (info.error && !needsPassword(info.error)) {
    return (
      <div className="page-center">
        {title}
        <div className="panel message-panel" role="alert">
          <p>{describe(info.error)}</p>
          <button type="button" className="button button-primary" onClick={() => void info.refetch()}>
            {t('common:retry')}
          </button>
        </div>
      </div>
    );
  }
  const data = info.data;
  return (
    <div className="page-center">
      {title}
      <div className="panel download-panel">
        {!data || data.locked ? (
          <PasswordForm transferId={transferId} userSecret={userSecret} onUnlocked={setPassword} />
        ) : (
          <TransferDetails
            info={data}
            password={password}
            userSecret={userSecret}
            purchaseToken={purchaseToken}
            highlightedId={fileId}
            onPasswordRejected={() => setPassword(undefined)}
            onPurchased={(token) => {
              // Paid (the server said so with the token): unlocked at once, then asked anew with the token.
              const key = ['download-info', transferId, password ?? null, userSecret ?? null, token];
              queryClient.setQueryData(key, { ...data, purchased: true });
              setPurchaseToken(token);
              void queryClient.invalidateQueries({ queryKey: key });
              toast.show(t('billing:purchase_done'), 'success');
            }}
          />
        )}
      </div>
      {reportId && <ReportAbuse transferId={reportId} />}
    </div>
  );
}
