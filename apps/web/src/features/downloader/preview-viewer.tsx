import type { DownloadLinkResponse, PreviewKind, TransferFile } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { type DownloadAccess, getPreview } from '../../lib/transfer-api';
import { downloadNoticeKey } from './download-errors';

export interface ViewerItem {
  file: TransferFile;
  kind: PreviewKind | null;
}

/**
 * The in-page viewer (a modal native <dialog>: the page behind is inert, so focus stays inside): image, PDF pages,
 * video or sound player, or text. Escape closes, the arrow keys go to the previous and next file, focus returns
 * to what opened it. Each file shown is asked for once per visit (one counted preview).
 */
export function PreviewViewer(props: {
  access: DownloadAccess;
  items: ViewerItem[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const { items, index, onIndex, onClose } = props;
  const item = items[index]!;
  const name = item.file.relativePath ?? item.file.name;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    closeButton.current?.focus();
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
      previous?.focus();
    };
  }, []);

  const go = (step: number) => {
    if (items.length > 1) onIndex((index + step + items.length) % items.length);
  };

  return (
    <dialog
      ref={dialog}
      className="dialog preview-dialog"
      aria-labelledby={`${id}-title`}
      data-testid="preview-viewer"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        // A player keeps its own arrow keys (seeking, volume).
        if (event.target instanceof HTMLMediaElement) return;
        if (event.key === 'Tab') keepFocusInside(event, dialog.current);
        else if (event.key === 'ArrowRight') go(1);
        else if (event.key === 'ArrowLeft') go(-1);
        else if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <header className="preview-dialog-header">
        <h2 id={`${id}-title`} className="preview-dialog-title" title={name}>
          {name}
        </h2>
        {items.length > 1 && (
          <span className="muted" data-testid="preview-position">
            {t('downloader:viewer_position', { current: index + 1, total: items.length })}
          </span>
        )}
        <button
          ref={closeButton}
          type="button"
          className="button button-small button-secondary"
          aria-label={t('downloader:viewer_close')}
          onClick={onClose}
          data-testid="preview-close"
        >
          <CloseIcon width={16} height={16} />
        </button>
      </header>
      <PreviewBody key={item.file.id} access={props.access} item={item} />
      {items.length > 1 && (
        <div className="panel-actions preview-dialog-nav">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => go(-1)}
            data-testid="preview-previous"
          >
            {t('downloader:viewer_previous')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => go(1)}
            data-testid="preview-next"
          >
            {t('downloader:viewer_next')}
          </button>
        </div>
      )}
    </dialog>
  );
}

const FOCUSABLE = 'button, [href], video, audio, [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first and Shift+Tab from the first to the last: focus stays in the viewer. */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>, dialog: HTMLDialogElement | null) {
  const stops = [...(dialog?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  if (stops.length === 0) return;
  const [first, last] = [stops[0]!, stops[stops.length - 1]!];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

function PreviewBody({ access, item }: { access: DownloadAccess; item: ViewerItem }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const preview = useQuery({
    queryKey: ['preview', access.transferId, item.file.id],
    queryFn: () => getPreview(access, item.file.id),
    retry: false,
    // Seen once per visit: going back to a file does not count it again (its URLs live an hour).
    staleTime: 50 * 60_000,
    gcTime: 50 * 60_000,
  });
  if (preview.isPending)
    return (
      <p className="muted preview-dialog-body" aria-busy="true">
        {t('downloader:preview_loading')}
      </p>
    );
  if (preview.error) {
    const notice = downloadNoticeKey(preview.error);
    return (
      <p className="notice notice-error preview-dialog-body" role="alert" data-testid="preview-error">
        {notice ? t(notice) : describe(preview.error)}
      </p>
    );
  }
  return <Rendition link={preview.data} name={item.file.name} />;
}

function Rendition({ link, name }: { link: DownloadLinkResponse; name: string }) {
  const { t } = useTranslation();
  const details = link.preview;
  if (!details) return null;
  const [first] = details.parts;
  switch (details.kind) {
    case 'image':
      return (
        <div className="preview-dialog-body">
          <img
            className="preview-media"
            src={first!.url}
            alt={name}
            width={first!.width ?? undefined}
            height={first!.height ?? undefined}
          />
        </div>
      );
    case 'pdf':
      return (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: pages that scroll must be reachable by keyboard
        <section className="preview-dialog-body preview-pages" tabIndex={0} aria-label={name}>
          {details.parts.map((page, i) => (
            <img
              key={page.url}
              className="preview-media"
              src={page.url}
              alt={t('downloader:viewer_page', { page: i + 1, name })}
              loading="lazy"
              width={page.width ?? undefined}
              height={page.height ?? undefined}
            />
          ))}
        </section>
      );
    case 'video':
      return (
        <div className="preview-dialog-body">
          {/* biome-ignore lint/a11y/useMediaCaption: a clip of the sender's own file has no captions to offer */}
          <video
            className="preview-media"
            src={first!.url}
            poster={details.poster?.url}
            controls
            playsInline
            preload="metadata"
            data-testid="preview-video"
          />
        </div>
      );
    case 'audio':
      return (
        <div className="preview-dialog-body">
          {details.poster && <img className="preview-media" src={details.poster.url} alt="" />}
          {/* biome-ignore lint/a11y/useMediaCaption: a clip of the sender's own file has no captions to offer */}
          <audio
            className="preview-audio"
            src={first!.url}
            controls
            preload="metadata"
            data-testid="preview-audio"
          />
        </div>
      );
    case 'text':
      return <TextRendition url={first!.url} />;
  }
}

function TextRendition({ url }: { url: string }) {
  const { t } = useTranslation();
  const text = useQuery({
    queryKey: ['preview-text', url],
    queryFn: async ({ signal }) => {
      const res = await fetch(url, { signal, credentials: 'same-origin' });
      if (!res.ok) throw new Error(`preview ${res.status}`);
      return res.text();
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (text.isPending) return <p className="muted preview-dialog-body">{t('downloader:preview_loading')}</p>;
  if (text.error)
    return <p className="notice notice-error preview-dialog-body">{t('downloader:preview_unavailable')}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a long text scrolls and must be reachable by keyboard
    <pre className="preview-dialog-body preview-text" tabIndex={0} data-testid="preview-text">
      {text.data}
    </pre>
  );
}
