import { useTranslation } from 'react-i18next';
import type { PendingVerification } from './resume-store';
import { SendStatus } from './send-status';
import { SenderVerification, type VerifiedResult } from './sender-verification';
import type { UploadSnapshot, UploadTarget } from './upload-engine';
import { percentOf, UploadStep } from './upload-step';
import { resendAvailableAt } from './use-sending';

/** The code entry of a transfer whose sender is not verified yet (nothing otherwise). */
export function CodeEntry({
  verification,
  target,
  uploaded,
  onVerified,
  onChange,
}: {
  verification: PendingVerification | null | undefined;
  target: UploadTarget;
  uploaded: boolean;
  onVerified: (result: VerifiedResult) => void;
  /** What to keep of the verification (a new code was sent). */
  onChange: (change: Partial<PendingVerification>) => void;
}) {
  if (verification?.state !== 'pending') return null;
  return (
    <SenderVerification
      transferId={target.transferId}
      uploadToken={target.uploadToken}
      email={verification.senderEmail}
      purpose={verification.type === 'S1' ? 'send' : 'notifications'}
      uploaded={uploaded}
      resendAvailableAt={resendAvailableAt(verification)}
      onVerified={onVerified}
      onResent={(retryAfterSeconds) =>
        onChange({ codeSentAt: new Date().toISOString(), resendAfterSeconds: retryAfterSeconds })
      }
    />
  );
}

export interface UploadControls {
  onPause: () => void;
  onResume: () => void;
  onRetry: () => void;
  onRetryFile: (id: string) => void;
  onCancel: () => void;
}

/**
 * Step 3: the upload and, for an e-mail transfer or one whose sender must prove their address, what it waits
 * for (the code entry beside the running upload). Once every file is uploaded only the code is left.
 */
export function SendStep({
  verification,
  target,
  uploadDone,
  snapshot,
  controls,
  onVerified,
  onVerificationChange,
}: {
  verification: PendingVerification | null;
  target: UploadTarget | null;
  uploadDone: boolean;
  snapshot: UploadSnapshot | null;
  controls: UploadControls;
  onVerified: (result: VerifiedResult) => void;
  onVerificationChange: (change: Partial<PendingVerification>) => void;
}) {
  const { t } = useTranslation();
  const withStatus =
    verification !== null && (verification.type === 'S1' || verification.state === 'pending');
  return (
    <div className="send-step">
      {withStatus && (
        <SendStatus
          uploadDone={uploadDone}
          uploadPercent={snapshot ? percentOf(snapshot.sentBytes, snapshot.totalBytes) : 0}
          verification={verification}
        />
      )}
      {target && (
        <CodeEntry
          verification={verification}
          target={target}
          uploaded={uploadDone}
          onVerified={onVerified}
          onChange={onVerificationChange}
        />
      )}
      {!uploadDone ? (
        <UploadStep snapshot={snapshot} titled={!withStatus} {...controls} />
      ) : (
        <div className="panel-actions">
          <button
            type="button"
            className="button button-secondary"
            data-testid="discard-transfer"
            onClick={controls.onCancel}
          >
            {t('uploader:discard_transfer')}
          </button>
        </div>
      )}
    </div>
  );
}
