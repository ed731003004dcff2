import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon, DownloadIcon } from '../../components/icons';
import { PRODUCT_NAME } from '../../lib/config';
import { useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import { copyText, saveTextFile } from './clipboard';

/** The text file of the codes: who they are for, then one code a line. */
export function recoveryCodesFile(codes: readonly string[], email: string, product = PRODUCT_NAME): string {
  return [`${product} recovery codes for ${email}`, '', ...codes, ''].join('\n');
}

/**
 * The recovery codes, shown once (after turning the second factor on, or asking for new ones): copy, download,
 * and "Done", after which they are gone from the page.
 */
export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { user } = useAuth();
  const titleId = useId();
  const text = useRef<HTMLTextAreaElement>(null);
  const heading = useRef<HTMLParagraphElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const copy = async () => {
    const ok = await copyText(codes.join('\n'), text.current);
    setCopied(ok);
    toast.show(t(ok ? 'account:codes_copied' : 'account:codes_copy_failed'), ok ? 'success' : 'error');
  };
  return (
    <section
      className="notice notice-success recovery-codes"
      aria-labelledby={titleId}
      data-testid="recovery-codes"
    >
      <p className="item-title" id={titleId} ref={heading} tabIndex={-1}>
        {t('account:codes_title')}
      </p>
      <p>{t('account:codes_once')}</p>
      <ol className="recovery-code-list mono" data-testid="recovery-code-list">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      {/* What the copy fallback selects where the Clipboard API is refused. */}
      <textarea
        ref={text}
        className="visually-hidden"
        readOnly
        tabIndex={-1}
        aria-hidden="true"
        value={codes.join('\n')}
      />
      <div className="auth-actions recovery-code-actions">
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => void copy()}
          data-testid="recovery-codes-copy"
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          {t(copied ? 'account:codes_copied_short' : 'account:codes_copy')}
        </button>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() =>
            saveTextFile(
              recoveryCodesFile(codes, user?.email ?? ''),
              `${PRODUCT_NAME.toLowerCase()}-recovery-codes.txt`,
            )
          }
          data-testid="recovery-codes-download"
        >
          <DownloadIcon />
          {t('account:codes_download')}
        </button>
        <button
          type="button"
          className="button button-primary button-small"
          onClick={onDone}
          data-testid="recovery-codes-done"
        >
          {t('account:codes_done')}
        </button>
      </div>
    </section>
  );
}
