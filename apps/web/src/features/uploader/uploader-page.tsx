import { PLAN_LIMITS, type TransferSummary } from '@ferry/core';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError, describeLimit } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { useToast } from '../toasts/toast-context';
import type { IncomingFile, WalkResult } from './collect-files';
import { DoneStep } from './done-step';
import { FileList } from './file-list';
import { FilePicker } from './file-picker';
import { OptionsStep } from './options-step';
import { ResumeBanner } from './resume-banner';
import { addFiles, removeFile, selectionLimitsOf } from './selection';
import { loadSender, saveSender } from './sender-store';
import { StepIndicator } from './step-indicator';
import { transferTypeFromHash } from './transfer-type';
import { UploadStep } from './upload-step';
import {
  buildCreateRequest,
  createUploaderReducer,
  formProblems,
  initialUploaderState,
} from './uploader-state';
import { usePendingTransfer } from './use-pending-transfer';
import { useUploadFlow } from './use-upload-flow';

/** At most this many "file skipped" notices; the rest are summed up in one. */
const MAX_REJECTION_TOASTS = 3;

/** Anonymous senders: the plan NONE limits of spec §9. */
const LIMITS = PLAN_LIMITS.NONE;

/** Dropping files outside the drop zone must not make the browser leave the page to open them. */
function usePreventStrayDrops(): void {
  useEffect(() => {
    const stop = (event: DragEvent) => {
      if (Array.from(event.dataTransfer?.types ?? []).includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
}

/** The uploader at `/` (spec §2 main layout): a title area and the numbered upload wizard. */
export function UploaderPage() {
  const { t, i18n } = useTranslation();
  const { hash } = useLocation();
  const type = transferTypeFromHash(hash);
  const toast = useToast();
  const describe = useDescribeError();
  const reducer = useMemo(() => createUploaderReducer(LIMITS), []);
  const [state, dispatch] = useReducer(reducer, undefined, () => initialUploaderState(LIMITS, loadSender()));
  const [summary, setSummary] = useState<TransferSummary | null>(null);
  const resumable = usePendingTransfer();
  const onFinished = useCallback((done: TransferSummary) => {
    setSummary(done);
    dispatch({ type: 'goTo', step: 4 });
  }, []);
  const flow = useUploadFlow(onFinished);
  const problems = formProblems(state.form, LIMITS);
  usePreventStrayDrops();

  // On each new step, focus moves to the panel, so keyboard and screen-reader users are not left on a button
  // that no longer exists.
  const panel = useRef<HTMLElement>(null);
  const shownStep = useRef(state.step);
  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    panel.current?.focus({ preventScroll: true });
  }, [state.step]);

  const { senderEmail, senderName } = state.form;
  useEffect(() => {
    saveSender({ email: senderEmail, name: senderName });
  }, [senderEmail, senderName]);

  const startResume = useCallback(
    (attached: ReadonlyMap<string, { file: File }>) => {
      const current = resumable.state;
      if (!current) return;
      flow.resume(current.pending, attached, current.uploadedIds);
      resumable.release();
      dispatch({ type: 'goTo', step: 3 });
    },
    [flow, resumable],
  );

  const addToSelection = (incoming: readonly IncomingFile[]) => {
    const result = addFiles(state.files, incoming, selectionLimitsOf(LIMITS));
    result.rejected.slice(0, MAX_REJECTION_TOASTS).forEach(({ name, problem }) => {
      toast.show(t(problem.key, { name, extensions: problem.extensions?.join(', ') ?? '' }), 'error');
    });
    if (result.rejected.length > MAX_REJECTION_TOASTS) {
      toast.show(
        t('uploader:more_rejected', { count: result.rejected.length - MAX_REJECTION_TOASTS }),
        'error',
      );
    }
    if (result.limit) toast.show(describeLimit(result.limit, i18n), 'error');
    if (result.duplicates > 0)
      toast.show(t('uploader:duplicates_skipped', { count: result.duplicates }), 'info');
    if (result.files.length !== state.files.length) dispatch({ type: 'setFiles', files: result.files });
  };

  const onFiles = ({ files, unreadable }: WalkResult) => {
    if (unreadable > 0) toast.show(t('uploader:unreadable', { count: unreadable }), 'error');
    if (resumable.state) {
      const match = resumable.attach(files);
      if (match.unrelated.length > 0) {
        toast.show(t('uploader:resume_unrelated', { count: match.unrelated.length }), 'error');
      }
      if (match.missing.length === 0) startResume(match.attached);
      return;
    }
    addToSelection(files);
  };

  const start = async () => {
    dispatch({ type: 'goTo', step: 3 });
    const error = await flow.start(
      buildCreateRequest(state, type === 'S1' ? 'S1' : 'S2', i18n.language),
      state.files,
    );
    if (error === null) return;
    dispatch({ type: 'goTo', step: 2 });
    if (
      error instanceof ApiError &&
      error.hasCode('INVALID_FILENAME') &&
      Array.isArray(error.details.files)
    ) {
      for (const f of error.details.files as Array<{ name?: string; key?: string }>) {
        if (f.key) toast.show(t(f.key, { name: f.name ?? '', extensions: '' }), 'error');
      }
      return;
    }
    toast.show(describe(error), 'error');
  };

  const cancel = () => {
    if (!window.confirm(t('uploader:cancel_confirm'))) return;
    flow.cancel();
    dispatch({ type: 'goTo', step: 2 });
  };

  const sendAnother = () => {
    flow.release();
    setSummary(null);
    dispatch({ type: 'reset' });
  };

  const step = state.step;
  return (
    <div className="uploader-layout">
      <title>{t('uploader:page_title', { product: PRODUCT_NAME })}</title>
      <div className="title-area">
        <h1 className="welcome-title">{t('uploader:welcome_title')}</h1>
        <p className="welcome-subtitle">{t('uploader:welcome_subtitle', { product: PRODUCT_NAME })}</p>
      </div>
      <section
        className="panel upload-panel"
        aria-label={t('uploader:panel_label')}
        data-transfer-type={type}
      >
        <StepIndicator current={step} />
        {step === 1 && (
          <div className="files-step">
            {resumable.state && (
              <ResumeBanner
                state={resumable.state}
                onDiscard={resumable.discard}
                onFinish={() => startResume(resumable.state?.attached ?? new Map())}
              />
            )}
            <FilePicker onFiles={onFiles} compact={state.files.length > 0} />
            <FileList
              files={state.files}
              onRemove={(key) => dispatch({ type: 'setFiles', files: removeFile(state.files, key) })}
            />
            {!resumable.state && (
              <div className="panel-actions">
                <button
                  type="button"
                  className="button button-primary"
                  data-testid="next"
                  disabled={state.files.length === 0}
                  onClick={() => dispatch({ type: 'goTo', step: 2 })}
                >
                  {t('common:next')}
                </button>
              </div>
            )}
          </div>
        )}
        {step === 2 && (
          <OptionsStep
            form={state.form}
            problems={problems}
            limits={LIMITS}
            dispatch={dispatch}
            onBack={() => dispatch({ type: 'goTo', step: 1 })}
            onStart={() => void start()}
            busy={flow.creating}
          />
        )}
        {step === 3 && (
          <UploadStep
            snapshot={flow.snapshot}
            onPause={() => flow.engine?.pause()}
            onResume={() => flow.engine?.resume()}
            onRetry={() => flow.engine?.retry()}
            onRetryFile={(id) => flow.engine?.retryFile(id)}
            onCancel={cancel}
          />
        )}
        {step === 4 && summary && <DoneStep summary={summary} onSendAnother={sendAnother} />}
      </section>
    </div>
  );
}
