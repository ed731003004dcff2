import { type ThumbnailLink, type TransferFile, truncateFileName } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon } from '../../components/icons';
import { type DownloadAccess, getThumbnailLinks } from '../../lib/transfer-api';
import { PreviewViewer } from './preview-viewer';

/** Pending thumbnails are asked again this often, this many times (their jobs run after the upload). */
export const THUMBNAIL_POLL_MS = 3000;
export const THUMBNAIL_POLLS = 6;
/** Tiles drawn while the first answer is awaited: a few rows at most, the rest come with it. */
const LOADING_TILES = 12;

/**
 * The transfer's files as a gallery of thumbnails (lazy images), each opening the in-page viewer when it can be
 * previewed. Files without a thumbnail show their kind's icon; files with neither are left out.
 */
export function PreviewGallery({
  access,
  files,
}: {
  access: DownloadAccess;
  files: readonly TransferFile[];
}) {
  const { t } = useTranslation();
  const polls = useRef(0);
  const [open, setOpen] = useState<number | null>(null);
  const ids = files.map((f) => f.id);
  const thumbs = useQuery({
    queryKey: [
      'thumbnails',
      access.transferId,
      access.password ?? null,
      access.userSecret ?? null,
      access.purchaseToken ?? null,
      ids.join(','),
    ],
    queryFn: ({ signal }) => {
      polls.current += 1;
      return getThumbnailLinks(access, ids.slice(0, 500), signal);
    },
    enabled: ids.length > 0,
    retry: false,
    staleTime: 30 * 60_000,
    refetchInterval: (query) =>
      query.state.data?.thumbnails.some((x) => x.status === 'pending') && polls.current < THUMBNAIL_POLLS
        ? THUMBNAIL_POLL_MS
        : false,
  });
  const byId = new Map((thumbs.data?.thumbnails ?? []).map((x) => [x.fileId, x]));
  const shown = files
    .map((file) => ({ file, thumb: byId.get(file.id) }))
    .filter(
      (x): x is { file: TransferFile; thumb: ThumbnailLink } =>
        x.thumb !== undefined && (x.thumb.status !== 'none' || x.thumb.preview),
    );
  // While the first answer is on its way, a tile per file (its icon and name) holds the gallery's place, so the
  // list below does not jump down when the answer comes (a layout shift)
  if (thumbs.isPending && ids.length > 0) {
    return (
      <section className="preview-gallery" aria-busy="true" data-testid="preview-gallery-loading">
        <ul className="preview-grid">
          {files.slice(0, LOADING_TILES).map((file) => (
            <li key={file.id} className="preview-item">
              <span className="preview-tile">
                <span className="preview-placeholder" aria-hidden="true">
                  <FileIcon width={32} height={32} />
                </span>
              </span>
              <span className="preview-caption" title={file.relativePath ?? file.name}>
                {truncateFileName(file.name)}
              </span>
            </li>
          ))}
        </ul>
      </section>
    );
  }
  if (shown.length === 0) return null;
  const viewable = shown.filter((x) => x.thumb.preview);
  return (
    <section
      className="preview-gallery"
      aria-label={t('downloader:gallery_label')}
      data-testid="preview-gallery"
    >
      <ul className="preview-grid">
        {shown.map(({ file, thumb }) => {
          const index = viewable.findIndex((v) => v.file.id === file.id);
          const name = file.relativePath ?? file.name;
          const content =
            thumb.status === 'ready' && thumb.url ? (
              <img
                src={thumb.url}
                alt=""
                loading="lazy"
                decoding="async"
                width={thumb.width}
                height={thumb.height}
              />
            ) : (
              <span className="preview-placeholder" aria-hidden="true">
                <FileIcon width={32} height={32} />
              </span>
            );
          return (
            <li key={file.id} className="preview-item" data-testid={`preview-item-${file.id}`}>
              {index >= 0 ? (
                <button
                  type="button"
                  className="preview-tile"
                  aria-label={t('downloader:preview_open', { name })}
                  onClick={() => setOpen(index)}
                  data-testid={`preview-open-${file.id}`}
                >
                  {content}
                </button>
              ) : (
                <span className="preview-tile" aria-busy={thumb.status === 'pending' || undefined}>
                  {content}
                </span>
              )}
              <span className="preview-caption" title={name}>
                {thumb.status === 'pending' ? t('downloader:preview_pending') : truncateFileName(file.name)}
              </span>
            </li>
          );
        })}
      </ul>
      {open !== null && viewable.length > 0 && (
        <PreviewViewer
          access={access}
          items={viewable.map((v) => ({ file: v.file, kind: v.thumb.kind ?? null }))}
          index={Math.min(open, viewable.length - 1)}
          onIndex={setOpen}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}
