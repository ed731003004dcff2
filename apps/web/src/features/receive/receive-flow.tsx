import type { ReceivePointPublic, ReceiveReceipt, ReceiveTarget } from '@ferry/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { formatSize } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import type { IncomingFile, WalkResult } from '../uploader/collect-files';
import { browserTimeZone } from '../uploader/create-request';
import { FileList } from '../uploader/file-list';
import { FilePicker } from '../uploader/file-picker';
import { ResumeBanner } from '../uploader/resume-banner';
import { addFiles, removeFiles, type SelectedFile } from '../uploader/selection';
import { usePreventStrayDrops, useSelectionNotices } from '../uploader/selection-notices';
import { loadSender, saveSender } from '../uploader/sender-store';
import { StepIndicator } from '../uploader/step-indicator';
import { UploadStep } from '../uploader/upload-step';
import { ReceiptStep } from './receipt-step';
import { pointKey, useReceiveResume } from './receive-resume';
import {
  asksAnything,
  hasUploaderProblems,
  UploaderFieldsForm,
  type UploaderValues,
  uploaderBody,
  uploaderProblems,
} from './uploader-fields';
import { useReceiveUpload } from './use-receive-upload';

/** The receive wizard's steps: files, the uploader's details, upload, receipt. */
export type ReceiveStep = 1 | 2 | 3 | 4;

const ALL_STEPS = [
  { step: 1, key: 'uploader:step_files' },
  { step: 2, key: 'uploader:receive.step_details' },
  { step: 3, key: 'uploader:step_upload' },
  { step: 4, key: 'uploader:step_done' },
] as const;

/** The numbered steps shown: without details to give, files → upload → receipt (numbered 1 to 3). */
export function shownSteps(withDetails: boolean, step: ReceiveStep) {
  if (withDetails) return { steps: ALL_STEPS, current: step as number };
  const steps = ALL_STEPS.filter((s) => s.step !== 2).map((s, i) => ({ step: i + 1, key: s.key }));
  return { steps, current: step <= 2 ? 1 : step - 1 };
}

/** Codes that mean the page itself no longer accepts uploads: the page says so instead of the form. */
export function isPointGone(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 || error.hasCode('RECEIVE_CLOSED') || error.hasCode('RECEIVE_EXPIRED'))
  );
}

/** Files the server named as refused (EXTENSION_NOT_AUTHORIZED, INVALID_FILENAME): names and notices. */
function refusedFiles(error: unknown): Array<{ name: string; key: string; extensions: string[] }> | null {
  if (!(error instanceof ApiError)) return null;
  if (!error.hasCode('EXTENSION_NOT_AUTHORIZED') && !error.hasCode('INVALID_FILENAME')) return null;
  const files = Array.isArray(error.details.files) ? error.details.files : [];
  const fallback = Array.isArray(error.details.allowedExtensions) ? error.details.allowedExtensions : [];
  return files.map((f: { name?: unknown; key?: unknown; extensions?: unknown }) => ({
    name: typeof f.name === 'string' ? f.name : '',
    key: typeof f.key === 'string' ? f.key : 'uploader:notif_invalid_filename',
    extensions: (Array.isArray(f.extensions) ? f.extensions : fallback).map(String),
  }));
}

function initialValues(account: { email: string; displayName: string | null } | null): UploaderValues {
  const saved = account ? { email: account.email, name: account.displayName ?? '' } : loadSender();
  return { name: saved.name, email: saved.email, message: '', answers: {} };
}

/**
 * The shared upload flow of every receive page (request, inbox, /push; the widget page too): files (checked
 * against the point's allowed extensions before anything is sent — spec §5 notif_extension_authorized — and
 * the server checks again), the uploader's details as the point asks them, the upload with the uploader's
 * engine (progress, speed, time left, pause, retry, resumable after a reload), and the receipt.
 */
export function ReceiveFlow({
  point,
  target,
  password,
  onPasswordRefused,
  onGone,
}: {
  point: ReceivePointPublic;
  target: ReceiveTarget;
  password: string | null;
  /** The server refused the upload's password (it changed since the gate): ask again. */
  onPasswordRefused: () => void;
  /** The point closed, expired or vanished meanwhile. */
  onGone: (error: unknown) => void;
}) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const announce = useSelectionNotices();
  const account = useAuth().user;
  const key = pointKey(target);
  const [step, setStep] = useState<ReceiveStep>(1);
  const [files, setFiles] = useState<SelectedFile[]>([]);
  const [values, setValues] = useState<UploaderValues>(() => initialValues(account));
  const [attempted, setAttempted] = useState(false);
  const [receipt, setReceipt] = useState<ReceiveReceipt | null>(null);
  const withDetails = asksAnything(point.fields);
  const resumable = useReceiveResume(key);
  const onFinished = useCallback((done: ReceiveReceipt) => {
    setReceipt(done);
    setStep(4);
  }, []);
  const upload = useReceiveUpload(key, onFinished);
  usePreventStrayDrops();

  // Focus follows the step, so keyboard and screen-reader users land on what is new.
  const panel = useRef<HTMLDivElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    panel.current?.focus({ preventScroll: true });
  }, [step]);

  const addToSelection = (incoming: readonly IncomingFile[]) => {
    const result = addFiles(
      files,
      incoming,
      { files: point.maxFiles, uploadSizeBytes: point.maxUploadBytes },
      { allowedExtensions: point.allowedExtensions },
    );
    announce(result);
    if (result.files.length !== files.length) setFiles(result.files);
  };

  const startResume = (attached: ReadonlyMap<string, { file: File }>) => {
    const state = resumable.state;
    if (!state) return;
    upload.resume(state.pending, attached, state.uploadedIds);
    resumable.release();
    setStep(3);
  };

  const onFiles = ({ files: incoming, unreadable }: WalkResult) => {
    if (unreadable > 0) toast.show(t('uploader:unreadable', { count: unreadable }), 'error');
    if (resumable.state) {
      const match = resumable.attach(incoming);
      if (match.unrelated.length > 0)
        toast.show(t('uploader:resume_unrelated', { count: match.unrelated.length }), 'error');
      if (match.missing.length === 0) startResume(match.attached);
      return;
    }
    addToSelection(incoming);
  };

  const failed = (error: unknown) => {
    if (isPointGone(error)) return onGone(error);
    if (error instanceof ApiError && (error.hasCode('WRONG_PASSWORD') || error.hasCode('PASSWORD_REQUIRED')))
      return onPasswordRefused();
    const refused = refusedFiles(error);
    if (refused) {
      for (const f of refused)
        toast.show(t(f.key, { name: f.name, extensions: f.extensions.join(', ') }), 'error');
      const names = new Set(refused.map((f) => f.name));
      setFiles((current) =>
        current.filter((f) => !names.has(f.relativePath ?? f.name) && !names.has(f.name)),
      );
      setStep(1);
      return;
    }
    toast.show(describe(error), 'error');
    if (error instanceof ApiError && error.hasCode('VALIDATION_FAILED') && withDetails) {
      setAttempted(true);
      setStep(2);
    } else setStep(withDetails ? 2 : 1);
  };

  const start = async () => {
    if (withDetails && hasUploaderProblems(uploaderProblems(values, point.fields))) {
      setAttempted(true);
      // The first field that says what is wrong, once it says it.
      setTimeout(() => panel.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    if (!account && (values.email.trim() || values.name.trim()))
      saveSender({ email: values.email.trim(), name: values.name.trim() });
    setStep(3);
    const result = await upload.start(
      {
        target,
        ...(password ? { password } : {}),
        ...uploaderBody(values, point.fields),
        locale: i18n.language,
        timeZone: browserTimeZone(),
      },
      files,
    );
    if (!result.ok) failed(result.error);
  };

  const cancel = () => {
    if (!window.confirm(t('uploader:cancel_confirm'))) return;
    upload.cancel();
    setStep(files.length === 0 ? 1 : withDetails ? 2 : 1);
  };

  const sendMore = () => {
    upload.release();
    setReceipt(null);
    setFiles([]);
    setAttempted(false);
    setValues((v) => ({ ...v, message: '', answers: {} }));
    setStep(1);
  };

  const indicator = shownSteps(withDetails, step);
  return (
    <div className="receive-flow" ref={panel} tabIndex={-1}>
      <StepIndicator current={indicator.current} steps={indicator.steps} />
      {step === 1 && (
        <div className="files-step">
          {resumable.state && (
            <ResumeBanner
              state={resumable.state}
              onDiscard={resumable.discard}
              onFinish={() => startResume(resumable.state?.attached ?? new Map())}
            />
          )}
          {point.allowedExtensions.length > 0 && (
            <p className="notice receive-allowed" data-testid="allowed-extensions">
              {t('uploader:receive.allowed_extensions', {
                extensions: point.allowedExtensions.map((e) => `.${e}`).join(', '),
              })}
            </p>
          )}
          <FilePicker onFiles={onFiles} compact={files.length > 0} />
          <FileList files={files} onRemove={(keys) => setFiles(removeFiles(files, keys))} />
          <p className="field-hint" data-testid="receive-limits">
            {t('uploader:receive.limits', {
              count: point.maxFiles,
              size: formatSize(point.maxUploadBytes, i18n.language),
            })}
          </p>
          {!resumable.state && (
            <div className="panel-actions">
              <button
                type="button"
                className={withDetails ? 'button button-primary' : 'button button-start'}
                data-testid="next"
                disabled={files.length === 0 || upload.creating}
                onClick={() => (withDetails ? setStep(2) : void start())}
              >
                {withDetails ? t('common:next') : t('uploader:receive.send_files')}
              </button>
            </div>
          )}
        </div>
      )}
      {step === 2 && (
        <form
          className="options-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          <UploaderFieldsForm
            fields={point.fields}
            values={values}
            onChange={setValues}
            attempted={attempted}
            recipientEmail={point.recipientEmail}
          />
          <div className="panel-actions">
            <button type="button" className="button button-secondary" onClick={() => setStep(1)}>
              {t('common:back')}
            </button>
            <button
              type="submit"
              className="button button-start"
              data-testid="start-upload"
              disabled={upload.creating || files.length === 0}
            >
              {t('uploader:receive.send_files')}
            </button>
          </div>
        </form>
      )}
      {step === 3 && (
        <UploadStep
          snapshot={upload.snapshot}
          onPause={() => upload.engine?.pause()}
          onResume={() => upload.engine?.resume()}
          onRetry={() => upload.engine?.retry()}
          onRetryFile={(id) => upload.engine?.retryFile(id)}
          onCancel={cancel}
        />
      )}
      {step === 4 && receipt && <ReceiptStep receipt={receipt} onSendMore={sendMore} />}
    </div>
  );
}
