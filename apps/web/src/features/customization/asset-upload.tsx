import type { ThemeAssetKind } from '@ferry/core';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

const ACCEPT: Record<ThemeAssetKind, string> = {
  logo: 'image/png,image/jpeg,image/webp,image/gif,image/avif',
  wallpaper: 'image/png,image/jpeg,image/webp,image/avif',
  mailHeader: 'image/png,image/jpeg,image/webp',
  video: 'video/mp4,video/webm',
};

/** A button that opens the file chooser for one kind of asset (images are re-encoded by the server). */
export function AssetUpload({
  kind,
  label,
  busy,
  onFile,
}: {
  kind: ThemeAssetKind;
  label: string;
  busy: boolean;
  onFile(file: File): void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  return (
    <div className="asset-upload">
      <input
        ref={input}
        type="file"
        accept={ACCEPT[kind]}
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
        data-testid={`upload-${kind}-input`}
      />
      <button
        type="button"
        className="button button-secondary button-small"
        aria-describedby={hintId}
        disabled={busy}
        onClick={() => input.current?.click()}
        data-testid={`upload-${kind}`}
      >
        {busy ? t('account:customization.uploading') : label}
      </button>
      <p id={hintId} className="field-hint">
        {kind === 'video' ? t('account:customization.video_hint') : t('account:customization.image_hint')}
      </p>
    </div>
  );
}
