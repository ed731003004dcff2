import { DEFAULT_THEME_COLORS, isPayingPlan, type TransferSummary } from '@ferry/core';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { withTexts } from '../../i18n/texts';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { preloadable } from '../../lib/preloadable';
import { useAuth } from '../auth/auth-context';
import { useTheme } from '../customization/theme-context';
import { InboxPanel } from '../receive/inbox-panel';
import { useToast } from '../toasts/toast-context';
import type { IncomingFile, WalkResult } from './collect-files';
import { DoneStep } from './done-step';
import { FileList } from './file-list';
import { FilePicker } from './file-picker';
import { ResumeBanner } from './resume-banner';
import { clearPending } from './resume-store';
import { addFiles, removeFiles, selectionLimitsOf } from './selection';
import { usePreventStrayDrops, useSelectionNotices } from './selection-notices';
import { loadSender, loadVerificationToken, saveSender, saveVerificationToken } from './sender-store';
import type { VerifiedResult } from './sender-verification';
import { StepIndicator } from './step-indicator';
import { transferTypeFromHash } from './transfer-type';
import { TransferTypeSwitch } from './transfer-type-switch';
import { targetOf } from './upload-plan';
import { useUploaderSetup } from './uploader-setup';
import { formProblems, initialUploaderState, type UploadType, uploaderReducer } from './uploader-state';
import { usePendingTransfer } from './use-pending-transfer';
import { useSending, waitsForCodeToSend } from './use-sending';
import { useUploadFlow } from './use-upload-flow';

// The steps after the first are chunks of their own, fetched once files are chosen (preloadLaterSteps) or when
// a transfer to resume is found: a visitor who only looks at the page loads the file picker and no more.
// Once fetched, a step is drawn in the render that shows it (preloadable), not a moment after.
const loadOptionsStep = preloadable(
  withTexts(() => import('./options-step').then((m) => ({ default: m.OptionsStep }))),
);
const loadSendStep = preloadable(
  withTexts(() => import('./send-step').then((m) => ({ default: m.SendStep }))),
);
const loadCodeEntry = preloadable(
  withTexts(() => import('./send-step').then((m) => ({ default: m.CodeEntry }))),
);
const loadSentStep = preloadable(
  withTexts(() => import('./sent-step').then((m) => ({ default: m.SentStep }))),
);
const OptionsStep = lazy(loadOptionsStep);
const SendStep = lazy(loadSendStep);
const CodeEntry = lazy(loadCodeEntry);
const SentStep = lazy(loadSentStep);

/** Starts fetching the later steps (and their texts): called when the visitor picks files. */
function preloadLaterSteps(): void {
  void Promise.all([loadOptionsStep(), loadSendStep(), loadCodeEntry(), loadSentStep()]).catch(
    () => undefined,
  );
}

/**
 * The uploader at `/` (spec §2 main layout): a title area and the numbered upload wizard; `aside` (the promo
 * panel) goes under the title, beside the wizard, and below it on narrow screens.
 */
export function UploaderPage({ aside }: { aside?: ReactNode } = {}) {
  const { t, i18n } = useTranslation();
  const { hash } = useLocation();
  // Limits, settings and templates of the signed-in user (spec §4); plan NONE and defaults for anonymous.
  const setup = useUploaderSetup();
  const { limits, settings } = setup;
  // The account's or team's theme: the uploader's title and recipients label, and what a transfer may customize.
  const { theme } = useTheme();
  const auth = useAuth();
  const customizable =
    auth.user !== null &&
    isPayingPlan(auth.state.planType) &&
    (auth.state.managerId === null || setup.settings.allowCustomization);
  const type = transferTypeFromHash(hash, setup.available, setup.defaultType);
  const toast = useToast();
  const describe = useDescribeError();
  const [state, dispatch] = useReducer(uploaderReducer, undefined, () =>
    initialUploaderState(setup.defaults.limits, loadSender(), setup.defaults.template),
  );
  // The template fills the form once it is loaded, and again when the signed-in user changes.
  useEffect(() => {
    dispatch({ type: 'prefill', defaults: setup.defaults });
  }, [setup.defaults]);
  const [summary, setSummary] = useState<TransferSummary | null>(null);
  const [takenLink, setTakenLink] = useState<string | null>(null);
  const paying = auth.user !== null && isPayingPlan(auth.state.planType);
  const resumable = usePendingTransfer();
  const current = useSending();
  const { sending } = current;
  const onFinished = useCallback(
    (done: TransferSummary) => {
      setSummary(done);
      const verification = current.ref.current?.verification;
      // An e-mail transfer waits on this step for the sender's code; it goes out once both are done.
      if (waitsForCodeToSend(verification)) current.updateVerification({ uploaded: true });
      else dispatch({ type: 'goTo', step: 4 });
    },
    [current.ref, current.updateVerification],
  );
  const flow = useUploadFlow(onFinished);
  const problems = formProblems(state.form, limits, type, settings);
  const announceSelection = useSelectionNotices();
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

  // Signed in: the sender is the account (its address needs no code); its name fills an empty name field.
  const account = useAuth().user;
  const accountEmail = account?.email ?? null;
  const accountName = account ? setup.senderName : null;
  useEffect(() => {
    if (!accountEmail) return;
    dispatch({ type: 'setField', field: 'senderEmail', value: accountEmail });
    if (accountName) dispatch({ type: 'fillSenderName', name: accountName });
  }, [accountEmail, accountName]);

  // The browser keeps the anonymous sender's e-mail and name (spec §3); an account's address is not kept.
  const { senderEmail, senderName } = state.form;
  useEffect(() => {
    saveSender({ email: accountEmail ? loadSender().email : senderEmail, name: senderName });
  }, [senderEmail, senderName, accountEmail]);

  // A transfer that is uploaded and only waits for the sender's code (reload after the upload): straight to
  // the code, no file needs to be added again.
  const awaitingCode = resumable.state?.awaitingCode ?? null;
  const awaitingPending = resumable.state?.pending;
  useEffect(() => {
    if (!awaitingCode || !awaitingPending || current.ref.current) return;
    const verification = awaitingPending.verification ?? null;
    current.set({
      target: targetOf(awaitingPending),
      verification: verification && { ...verification, uploaded: true },
    });
    setSummary(awaitingCode);
    resumable.release();
    dispatch({ type: 'goTo', step: waitsForCodeToSend(verification) ? 3 : 4 });
  }, [awaitingCode, awaitingPending, current.ref, current.set, resumable.release]);

  const startResume = useCallback(
    (attached: ReadonlyMap<string, { file: File }>) => {
      const pending = resumable.state;
      if (!pending) return;
      current.set({ target: targetOf(pending.pending), verification: pending.pending.verification ?? null });
      flow.resume(pending.pending, attached, pending.uploadedIds);
      resumable.release();
      dispatch({ type: 'goTo', step: 3 });
    },
    [flow, resumable, current.set],
  );

  const addToSelection = (incoming: readonly IncomingFile[]) => {
    preloadLaterSteps();
    const result = addFiles(state.files, incoming, selectionLimitsOf(limits), {
      allowedExtensions: settings.sendAllowedExtensions,
    });
    announceSelection(result);
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

  const start = async (sendType: UploadType) => {
    dispatch({ type: 'goTo', step: 3 });
    const token = loadVerificationToken(state.form.senderEmail);
    const { browserTimeZone, buildCreateRequest } = await import('./create-request');
    const request = buildCreateRequest(state, sendType, {
      locale: i18n.language,
      senderVerificationToken: token,
      timeZone: browserTimeZone(),
      settings,
      paying,
      customizable,
    });
    const result = await flow.start(request, state.files);
    if (result.ok) {
      current.set({ target: result.target, verification: result.verification });
      return;
    }
    const { error } = result;
    dispatch({ type: 'goTo', step: 2 });
    // Said under the field, which gets the focus back: another transfer took this link meanwhile.
    if (error instanceof ApiError && error.hasCode('CUSTOM_LINK_TAKEN')) {
      setTakenLink(request.customLink ?? null);
      return;
    }
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

  const keepProof = (email: string, { proof }: VerifiedResult) => {
    if (proof && email) {
      saveVerificationToken({ email, token: proof.senderVerificationToken, expiresAt: proof.expiresAt });
    }
    toast.show(t('uploader:verify_done'), 'success');
  };

  const onVerified = (result: VerifiedResult) => {
    const now = current.ref.current;
    if (!now) return;
    const { transfer } = result;
    keepProof(now.verification?.senderEmail ?? transfer.senderEmail ?? '', result);
    if (now.verification?.uploaded || summary) {
      // Uploaded and now verified: the transfer went out; nothing is left to resume.
      clearPending(now.target.transferId);
      current.set({ ...now, verification: now.verification && { ...now.verification, state: 'verified' } });
      setSummary(transfer);
      dispatch({ type: 'goTo', step: 4 });
    } else current.updateVerification({ state: 'verified' });
  };

  const cancel = () => {
    if (!window.confirm(t('uploader:cancel_confirm'))) return;
    flow.cancel();
    const now = current.ref.current;
    if (now) clearPending(now.target.transferId);
    current.set(null);
    setSummary(null);
    dispatch({ type: 'goTo', step: state.files.length > 0 ? 2 : 1 });
  };

  const sendAnother = () => {
    flow.release();
    current.set(null);
    setSummary(null);
    dispatch({ type: 'reset' });
  };

  const step = state.step;
  const verification = sending?.verification ?? null;
  const uploadDone = summary !== null || verification?.uploaded === true;
  return (
    <div className="uploader-layout">
      <title>{t('uploader:page_title', { product: PRODUCT_NAME })}</title>
      <div className="title-area">
        <h1 className="welcome-title">{theme?.uploader.subject ?? t('uploader:welcome_title')}</h1>
        <p className="welcome-subtitle">{t('uploader:welcome_subtitle', { product: PRODUCT_NAME })}</p>
      </div>
      <section
        className="panel upload-panel"
        aria-label={t('uploader:panel_label')}
        data-transfer-type={type}
        ref={panel}
        tabIndex={-1}
      >
        <StepIndicator current={step} />
        {step <= 2 && !resumable.state && <TransferTypeSwitch current={type} available={setup.available} />}
        {step === 1 && (
          <div className="files-step">
            {resumable.state && !resumable.state.awaitingCode && (
              <ResumeBanner
                state={resumable.state}
                onDiscard={resumable.discard}
                onFinish={() => startResume(resumable.state?.attached ?? new Map())}
              >
                {/* Only once the server's state is known: a transfer that turns out to be fully uploaded goes
                    straight to the code step, and a code typed here in the meantime would be lost with the banner. */}
                {resumable.state.checked && (
                  <Suspense fallback={null}>
                    <CodeEntry
                      verification={resumable.state.pending.verification}
                      target={targetOf(resumable.state.pending)}
                      uploaded={false}
                      onVerified={(result) => {
                        keepProof(resumable.state?.pending.verification?.senderEmail ?? '', result);
                        resumable.updateVerification({ state: 'verified' });
                      }}
                      onChange={resumable.updateVerification}
                    />
                  </Suspense>
                )}
              </ResumeBanner>
            )}
            <FilePicker onFiles={onFiles} compact={state.files.length > 0} />
            <FileList
              files={state.files}
              onRemove={(keys) => dispatch({ type: 'setFiles', files: removeFiles(state.files, keys) })}
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
            <InboxPanel />
          </div>
        )}
        {step === 2 && (
          <Suspense fallback={<StepLoading />}>
            <OptionsStep
              type={type}
              form={state.form}
              problems={problems}
              limits={limits}
              settings={settings}
              dispatch={dispatch}
              onBack={() => dispatch({ type: 'goTo', step: 1 })}
              onStart={() => void start(type)}
              busy={flow.creating}
              paying={paying}
              takenLink={takenLink}
              recipientLabel={theme?.uploader.recipientLabel ?? null}
              customization={
                customizable
                  ? {
                      wallpapers: theme?.customization.wallpaperURLs ?? [],
                      themeColors: {
                        backgroundColor: theme?.backgroundColor ?? DEFAULT_THEME_COLORS.backgroundColor,
                        actionColor: theme?.actionColor ?? DEFAULT_THEME_COLORS.actionColor,
                        startbtnColor: theme?.startbtnColor ?? DEFAULT_THEME_COLORS.startbtnColor,
                      },
                    }
                  : null
              }
            />
          </Suspense>
        )}
        {step === 3 && (
          <Suspense fallback={<StepLoading />}>
            <SendStep
              verification={verification}
              target={sending?.target ?? null}
              uploadDone={uploadDone}
              snapshot={flow.snapshot}
              controls={{
                onPause: () => flow.engine?.pause(),
                onResume: () => flow.engine?.resume(),
                onRetry: () => flow.engine?.retry(),
                onRetryFile: (id) => flow.engine?.retryFile(id),
                onCancel: cancel,
              }}
              onVerified={onVerified}
              onVerificationChange={current.updateVerification}
            />
          </Suspense>
        )}
        {step === 4 && summary && sending && summary.type === 'S1' && (
          <Suspense fallback={<StepLoading />}>
            <SentStep
              summary={summary}
              uploadToken={sending.target.uploadToken}
              onSendAnother={sendAnother}
            />
          </Suspense>
        )}
        {step === 4 && summary && summary.type !== 'S1' && (
          <DoneStep summary={summary} onSendAnother={sendAnother}>
            {sending && (
              <Suspense fallback={null}>
                <CodeEntry
                  verification={verification}
                  target={sending.target}
                  uploaded
                  onVerified={onVerified}
                  onChange={current.updateVerification}
                />
              </Suspense>
            )}
          </DoneStep>
        )}
      </section>
      {aside && <div className="uploader-aside">{aside}</div>}
    </div>
  );
}

/** Where a step shows while its chunk arrives (a moment, once per visit). */
function StepLoading() {
  return <div className="step-loading" aria-busy="true" />;
}
