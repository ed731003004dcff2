import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { DownloadIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { PRODUCT_NAME } from '../../lib/config';
import { createReceiveRequest } from '../../lib/receive-api';
import { useAuth } from '../auth/auth-context';
import { signInPath } from '../auth/auth-errors';
import { useToast } from '../toasts/toast-context';
import { browserTimeZone } from '../uploader/create-request';
import { transferTypeFromHash } from '../uploader/transfer-type';
import { TransferTypeSwitch } from '../uploader/transfer-type-switch';
import { useReceiveSetup } from './receive-setup';
import { ReceiveTitle } from './receive-title';
import { RequestFormFields } from './request-form';
import {
  buildRequestCreate,
  initialRequestState,
  requestFormReducer,
  requestProblems,
} from './request-form-state';
import { RequestResult } from './request-result';
import './receive.css';

const MODE_LABELS = { S1: 'uploader:receive.type_S1', S2: 'uploader:receive.type_S2' } as const;

/** A signed-out visitor: why an account is needed, and a sign-in link that comes back here. */
function SignInFirst() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="request-signin" data-testid="request-signin">
      <DownloadIcon className="request-signin-icon" width={40} height={40} />
      <h2 className="panel-title">{t('uploader:receive.signin_title')}</h2>
      <p className="muted">{t('uploader:receive.signin_text', { product: PRODUCT_NAME })}</p>
      <div className="panel-actions">
        <Link to="/register" className="button button-secondary">
          {t('uploader:receive.signin_register')}
        </Link>
        <Link to={signInPath(location)} className="button button-primary" data-testid="request-signin-link">
          {t('uploader:receive.signin_link')}
        </Link>
      </div>
    </div>
  );
}

/** The form and its result, for a signed-in requester. */
function RequestWizard() {
  const { t, i18n } = useTranslation();
  const { hash } = useLocation();
  const toast = useToast();
  const describe = useDescribeError();
  const setup = useReceiveSetup();
  const [state, dispatch] = useReducer(requestFormReducer, setup.defaults, initialRequestState);
  useEffect(() => {
    dispatch({ type: 'prefill', defaults: setup.defaults });
  }, [setup.defaults]);
  const [busy, setBusy] = useState(false);
  const [customIdTaken, setCustomIdTaken] = useState<string | null>(null);
  const linkMode = transferTypeFromHash(hash, setup.available, setup.defaultMode);
  const problems = requestProblems(state.form, linkMode, setup.limits, setup.settings);

  // Focus follows the step, so keyboard and screen-reader users land on what is new.
  const panel = useRef<HTMLElement>(null);
  const shownStep = useRef(state.step);
  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    panel.current?.focus({ preventScroll: true });
  }, [state.step]);

  const submit = async () => {
    setBusy(true);
    setCustomIdTaken(null);
    try {
      const body = buildRequestCreate(state.form, linkMode, setup.settings, {
        locale: i18n.language,
        timeZone: browserTimeZone(),
      });
      dispatch({ type: 'created', request: await createReceiveRequest(body) });
    } catch (error) {
      if (error instanceof ApiError && error.hasCode('CONFLICT') && error.details.field === 'customId') {
        setCustomIdTaken(state.form.customId.trim().toLowerCase());
      } else toast.show(describe(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  const subject = state.form.subject.trim();
  const name = state.form.senderName.trim() || state.form.senderEmail.trim();
  return (
    <>
      <ReceiveTitle
        title={t('uploader:receive.request_title')}
        subtitle={t('uploader:receive.request_subtitle', { product: PRODUCT_NAME })}
      >
        {state.step === 1 && (subject || name) && (
          <p className="receive-preview" data-testid="request-preview">
            <span className="receive-preview-label">{t('uploader:receive.preview_label')}</span>{' '}
            <strong>
              {name ? t('uploader:receive.title_to', { name }) : t('uploader:receive.title_anyone')}
            </strong>
            {subject && <span> · {subject}</span>}
          </p>
        )}
      </ReceiveTitle>
      <section
        className="panel upload-panel request-panel"
        aria-label={t('uploader:receive.panel_label')}
        data-link-mode={linkMode}
        ref={panel}
        tabIndex={-1}
      >
        {setup.available.length === 0 ? (
          <p className="notice notice-warn" role="status" data-testid="request-disallowed">
            {t('uploader:receive.disallowed')}
          </p>
        ) : state.step === 1 || !state.created ? (
          <>
            <TransferTypeSwitch current={linkMode} available={setup.available} labels={MODE_LABELS} />
            <p className="field-hint request-mode-hint">
              {t(linkMode === 'S1' ? 'uploader:receive.mode_hint_S1' : 'uploader:receive.mode_hint_S2')}
            </p>
            <RequestFormFields
              linkMode={linkMode}
              form={state.form}
              problems={problems}
              limits={setup.limits}
              settings={setup.settings}
              dispatch={dispatch}
              onSubmit={() => void submit()}
              busy={busy}
              customIdTaken={
                customIdTaken !== null && customIdTaken === state.form.customId.trim().toLowerCase()
              }
            />
          </>
        ) : (
          <RequestResult created={state.created} onNewRequest={() => dispatch({ type: 'reset' })} />
        )}
      </section>
    </>
  );
}

/**
 * `/request-files` (and `#S1`, `#S2`), the receiver of spec §2: ask people for files — by e-mail, each with a
 * personal upload link (S1), or with one link to share (S2). Needs an account: a signed-out visitor is told
 * why and offered to sign in (and come back here).
 */
export function RequestFilesPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  return (
    <div className="uploader-layout receiver-layout" data-testid="receiver-page">
      <title>{t('uploader:receive.page_title', { product: PRODUCT_NAME })}</title>
      {!auth.user && (
        <ReceiveTitle
          title={t('uploader:receive.request_title')}
          subtitle={t('uploader:receive.request_subtitle', { product: PRODUCT_NAME })}
        />
      )}
      {auth.status === 'loading' ? (
        <section className="panel upload-panel" aria-busy="true">
          <p className="muted" role="status">
            {t('auth:checking_session')}
          </p>
        </section>
      ) : auth.user ? (
        <RequestWizard key={auth.user.uid} />
      ) : (
        <section className="panel upload-panel" aria-label={t('uploader:receive.panel_label')}>
          <SignInFirst />
        </section>
      )}
    </div>
  );
}
