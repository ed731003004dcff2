import { formatSize, type TransferSummary } from '@ferry/core';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { formatDateTime } from '../../lib/format';
import { useToast } from '../toasts/toast-context';

/** The link as people can open it: the server may answer a path ("/dl/…") or a full URL. */
export function absoluteLink(link: string, origin = window.location.origin): string {
  try {
    return new URL(link, origin).href;
  } catch {
    return link;
  }
}

async function copyText(text: string, fallbackInput: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (permissions, insecure context): select the text and use the legacy command.
    if (!fallbackInput) return false;
    fallbackInput.select();
    return document.execCommand('copy');
  }
}

/** Step 4: the transfer's link with a copy button, and "send another" (which resets, spec §4). */
export function DoneStep({
  summary,
  onSendAnother,
}: {
  summary: TransferSummary;
  onSendAnother: () => void;
}) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const link = absoluteLink(summary.link);

  const copy = async () => {
    const ok = await copyText(link, input.current);
    setCopied(ok);
    toast.show(t(ok ? 'uploader:link_copied' : 'uploader:link_copy_failed'), ok ? 'success' : 'error');
  };

  return (
    <section className="done-step" aria-labelledby="done-title">
      <div className="done-badge" aria-hidden="true">
        <CheckIcon width={32} height={32} />
      </div>
      <h2 id="done-title" className="panel-title">
        {t('uploader:done_title')}
      </h2>
      <p className="muted">
        {t('uploader:done_text', {
          count: summary.files.length,
          size: formatSize(summary.totalSize),
          date: formatDateTime(summary.expiresAt, i18n.language),
        })}
      </p>
      <label htmlFor={id} className="field-label">
        {t('uploader:link_label')}
      </label>
      <div className="input-with-button link-field">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={link}
          data-testid="transfer-link"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="button button-primary"
          data-testid="copy-link"
          onClick={() => void copy()}
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          {t(copied ? 'uploader:copied' : 'uploader:copy')}
        </button>
      </div>
      <div className="panel-actions">
        <a className="button button-secondary" href={link} target="_blank" rel="noopener">
          {t('uploader:open_link')}
        </a>
        <button
          type="button"
          className="button button-primary"
          data-testid="send-another"
          onClick={onSendAnother}
        >
          {t('uploader:send_another')}
        </button>
      </div>
    </section>
  );
}
