import {
  type ContactGroup,
  type ContactImportFormat,
  type ContactImportResult,
  MAX_CONTACT_IMPORT_BYTES,
} from '@ferry/core';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contactsExportUrl, importContacts } from '../../../lib/contacts-api';
import { formatSize } from '../../../lib/format';
import { useContactsAction } from './contacts-action';

/** The format a file's name says (.vcf / .vcard, .csv); none: the server looks at the text. */
export function formatOfFile(name: string): ContactImportFormat | undefined {
  if (/\.(vcf|vcard)$/i.test(name)) return 'vcard';
  if (/\.csv$/i.test(name)) return 'csv';
  return undefined;
}

function ImportSummary({ result }: { result: ContactImportResult }) {
  const { t } = useTranslation();
  return (
    <div className="notice import-summary" role="status" data-testid="import-result">
      <p data-testid="import-counts">
        {[
          t('account:contacts.import_added', { count: result.added }),
          t('account:contacts.import_updated', { count: result.updated }),
          t('account:contacts.import_unchanged', { count: result.unchanged }),
          t('account:contacts.import_skipped', { count: result.skipped }),
        ].join(' · ')}
      </p>
      {result.skippedLines.length > 0 && (
        <details>
          <summary>{t('account:contacts.import_skipped_details', { count: result.skipped })}</summary>
          <ul className="import-skipped" data-testid="import-skipped">
            {result.skippedLines.map((line) => (
              <li key={`${line.line}-${line.reason}-${line.value ?? ''}`}>
                {t('account:contacts.import_line', {
                  line: line.line,
                  reason: t(`account:contacts.skip_${line.reason}`),
                })}
                {line.value && <span className="import-skipped-value"> “{line.value}”</span>}
              </li>
            ))}
          </ul>
          {result.skippedLines.length < result.skipped && (
            <p className="muted">
              {t('account:contacts.import_more_skipped', {
                count: result.skipped - result.skippedLines.length,
              })}
            </p>
          )}
        </details>
      )}
    </div>
  );
}

/**
 * Import a CSV or vCard file (read in the browser, sent as text), optionally into a group, with the server's
 * summary of what was added, filled in, left as it was and skipped (line by line); and export links.
 */
export function AddressBookImport({ groups }: { groups: readonly ContactGroup[] }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [groupId, setGroupId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<ContactImportResult | null>(null);
  const action = useContactsAction('contacts.done_imported');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    setProblem(null);
    if (!file) {
      setProblem(t('account:contacts.import_choose'));
      return;
    }
    if (file.size > MAX_CONTACT_IMPORT_BYTES) {
      setProblem(
        t('account:contacts.import_too_large_size', {
          max: formatSize(MAX_CONTACT_IMPORT_BYTES, i18n.language),
        }),
      );
      return;
    }
    let content: string;
    try {
      content = await file.text();
    } catch {
      setProblem(t('account:contacts.import_unreadable'));
      return;
    }
    action.run(
      () =>
        importContacts({
          content,
          format: formatOfFile(file.name),
          groupId: groupId || undefined,
        }),
      setResult,
    );
  };

  return (
    <section className="panel dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account:contacts.import_title')}
      </h2>
      <p className="field-hint">
        {t('account:contacts.import_hint', { max: formatSize(MAX_CONTACT_IMPORT_BYTES, i18n.language) })}
      </p>
      <form className="import-form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor={`${id}-file`}>{t('account:contacts.import_file')}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,.vcf,.vcard,text/csv,text/vcard,text/x-vcard"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblem(null);
            }}
            data-testid="import-file"
          />
        </div>
        {groups.length > 0 && (
          <div className="field">
            <label htmlFor={`${id}-group`}>{t('account:contacts.import_group')}</label>
            <select
              id={`${id}-group`}
              value={groupId}
              onChange={(event) => setGroupId(event.target.value)}
              data-testid="import-group"
            >
              <option value="">{t('account:contacts.import_no_group')}</option>
              {groups.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <button
          type="submit"
          className="button button-primary button-small"
          disabled={action.pending}
          data-testid="import-submit"
        >
          {action.pending ? t('account:contacts.importing') : t('account:contacts.import_submit')}
        </button>
      </form>
      {(problem ?? action.error) && (
        <p className="field-error" role="alert" data-testid="import-error">
          {problem ?? action.error}
        </p>
      )}
      {result && <ImportSummary result={result} />}
      <p className="address-book-export">
        <span>{t('account:contacts.export')}</span>
        <a className="button button-secondary button-small" href={contactsExportUrl('csv')} download>
          {t('account:contacts.export_csv')}
        </a>
        <a className="button button-secondary button-small" href={contactsExportUrl('vcard')} download>
          {t('account:contacts.export_vcard')}
        </a>
      </p>
    </section>
  );
}
