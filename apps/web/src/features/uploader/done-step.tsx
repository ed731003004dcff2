import type { TransferSummary } from '@ferry/core';
import { type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { formatDateTime, formatSize } from '../../lib/format';
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

/**
 * The transfer's link, read-only, with a copy button (clipboard, else the legacy copy command). `testId` names
 * the input (default `transfer-link`, its button `copy-link`; else `<testId>-copy`).
 */
export function LinkField({ link, label, testId }: { link: string; label: string; testId?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    const ok = await copyText(link, input.current);
    setCopied(ok);
    toast.show(t(ok ? 'uploader:link_copied' : 'uploader:link_copy_failed'), ok ? 'success' : 'error');
  };

  return (
    <>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="input-with-button link-field">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={link}
          data-testid={testId ?? 'transfer-link'}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="button button-primary"
          data-testid={testId ? `${testId}-copy` : 'copy-link'}
          onClick={() => void copy()}
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          {t(copied ? 'uploader:copied' : 'uploader:copy')}
        </button>
      </div>
    </>
  );
}

/** "3 files · 12 MB · available until …" of a finished transfer. */
export function TransferFacts({ summary }: { summary: TransferSummary }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <p className="muted">
        {t('uploader:done_text', {
          count: summary.files.length,
          size: formatSize(summary.totalSize, i18n.language),
          date: formatDateTime(summary.expiresAt, i18n.language),
        })}
      </p>
      {summary.status === 'PENDING' && summary.availableFrom && (
        <p className="notice" data-testid="transfer-pending">
          {t('uploader:pending_until', { date: formatDateTime(summary.availableFrom, i18n.language) })}
        </p>
      )}
    </>
  );
}

/**
 * Step 4 of a link (S2): the transfer's link with a copy button, and "send another" (which resets, spec §4).
 * `children` (the sender's code, when download confirmations wait for it) come below the link.
 */
export function DoneStep({
  summary,
  onSendAnother,
  children,
}: {
  summary: TransferSummary;
  onSendAnother: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const link = absoluteLink(summary.link);

  return (
    <section className="done-step" aria-labelledby="done-title">
      <div className="done-badge" aria-hidden="true">
        <CheckIcon width={32} height={32} />
      </div>
      <h2 id="done-title" className="panel-title">
        {t('uploader:done_title')}
      </h2>
      <TransferFacts summary={summary} />
      <LinkField link={link} label={t('uploader:link_label')} />
      {children}
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
