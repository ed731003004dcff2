import type { ReceivePointPublic, ReceiveReceipt } from '@ferry/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError, describeLimit } from '../../lib/api';
import { isPointGone } from '../receive/receive-flow';
import { pointKey, useReceiveResume } from '../receive/receive-resume';
import { useReceiveUpload } from '../receive/use-receive-upload';
import type { WalkResult } from '../uploader/collect-files';
import { browserTimeZone } from '../uploader/create-request';
import { ResumeBanner } from '../uploader/resume-banner';
import { addFiles, removeFile, type SelectedFile } from '../uploader/selection';
import { usePreventStrayDrops } from '../uploader/selection-notices';
import { UploadStep } from '../uploader/upload-step';
import { WidgetForm } from './widget-form';
import {
  EMPTY_VALUES,
  hasWidgetProblems,
  type WidgetProblems,
  type WidgetValues,
  widgetProblems,
  widgetUploadRequest,
} from './widget-form-state';
import { WidgetReceipt } from './widget-receipt';

const dotted = (extensions: readonly string[]) =>
  extensions.map((e) => `.${e.replace(/^\./, '')}`).join(', ');

/**
 * The widget's upload: one compact form (fields, password, files), then the receive pages' upload (the
 * uploader's engine: tus, SHA-256 in a worker, progress with speed and time left, resumable after a reload),
 * then the receipt. Notices stay in the frame, next to what they are about.
 */
export function WidgetUploader({
  widgetId,
  point,
  onClosed,
}: {
  widgetId: string;
  point: ReceivePointPublic;
  onClosed: () => void;
}) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const key = pointKey({ kind: 'widget', widgetId });
  const [receipt, setReceipt] = useState<ReceiveReceipt | null>(null);
  const upload = useReceiveUpload(
    key,
    useCallback((done: ReceiveReceipt) => setReceipt(done), []),
  );
  const resumable = useReceiveResume(key);
  const form = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState<WidgetValues>(EMPTY_VALUES);
  const [files, setFiles] = useState<SelectedFile[]>([]);
  const [notices, setNotices] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [server, setServer] = useState<WidgetProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  usePreventStrayDrops();

  const problems: WidgetProblems = tried ? { ...widgetProblems(point, values, files.length), ...server } : {};

  // After a refused send, the first field to fix takes focus (the file picker when files are missing).
  useEffect(() => {
    if (attempt === 0) return;
    const root = form.current;
    const first =
      root?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      root?.querySelector<HTMLElement>('[data-testid="dropzone"]');
    first?.focus();
  }, [attempt]);

  const resume = (attached: ReadonlyMap<string, { file: File }>) => {
    const state = resumable.state;
    if (!state) return;
    upload.resume(state.pending, attached, state.uploadedIds);
    resumable.release();
  };

  const onFiles = (result: WalkResult) => {
    const next: string[] = [];
    if (result.unreadable > 0) next.push(t('uploader:unreadable', { count: result.unreadable }));
    if (resumable.state) {
      const match = resumable.attach(result.files);
      if (match.unrelated.length > 0)
        next.push(t('uploader:resume_unrelated', { count: match.unrelated.length }));
      setNotices(next);
      if (match.missing.length === 0) resume(match.attached);
      return;
    }
    const added = addFiles(
      files,
      result.files,
      { files: point.maxFiles, uploadSizeBytes: point.maxUploadBytes },
      { allowedExtensions: point.allowedExtensions },
    );
    for (const { name, problem } of added.rejected)
      next.push(t(problem.key, { name, extensions: dotted(problem.extensions ?? []) }));
    if (added.limit) next.push(describeLimit(added.limit, i18n));
    if (added.duplicates > 0) next.push(t('uploader:duplicates_skipped', { count: added.duplicates }));
    setFiles(added.files);
    setNotices(next);
  };

  const refused = (error: unknown) => {
    if (isPointGone(error)) return onClosed();
    if (!(error instanceof ApiError)) return setFailure(describe(error));
    if (error.hasCode('WRONG_PASSWORD')) return setServer({ password: 'wrong' });
    if (error.hasCode('PASSWORD_REQUIRED')) return setServer({ password: 'required' });
    if (error.hasCode('EXTENSION_NOT_AUTHORIZED') && Array.isArray(error.details.files)) {
      const list = error.details.files as Array<{ name?: string; extensions?: string[] }>;
      setNotices(
        list.map((f) =>
          t('uploader:notif_extension_authorized', {
            name: f.name ?? '',
            extensions: dotted(f.extensions ?? []),
          }),
        ),
      );
    }
    setFailure(describe(error));
  };

  const send = async () => {
    setTried(true);
    setServer({});
    setFailure(null);
    if (hasWidgetProblems(widgetProblems(point, values, files.length))) {
      setAttempt((n) => n + 1);
      return;
    }
    const body = widgetUploadRequest(widgetId, point, values, {
      locale: i18n.language,
      timeZone: browserTimeZone(),
    });
    const result = await upload.start(body, files);
    if (!result.ok) {
      refused(result.error);
      setAttempt((n) => n + 1);
    }
  };

  const again = () => {
    upload.release();
    setReceipt(null);
    setValues(EMPTY_VALUES);
    setFiles([]);
    setNotices([]);
    setTried(false);
  };

  if (receipt) return <WidgetReceipt receipt={receipt} onAgain={again} />;
  if (upload.engine) {
    return (
      <div className="widget-progress" data-testid="widget-progress">
        <UploadStep
          snapshot={upload.snapshot}
          titled={false}
          onPause={() => upload.engine?.pause()}
          onResume={() => upload.engine?.resume()}
          onRetry={() => upload.engine?.retry()}
          onRetryFile={(id) => upload.engine?.retryFile(id)}
          onCancel={() => upload.cancel()}
        />
      </div>
    );
  }
  return (
    <div ref={form}>
      {resumable.state && (
        <ResumeBanner
          state={resumable.state}
          onDiscard={resumable.discard}
          onFinish={() => resume(resumable.state?.attached ?? new Map())}
        />
      )}
      <WidgetForm
        point={point}
        values={values}
        files={files}
        problems={problems}
        notices={notices}
        failure={failure}
        busy={upload.creating}
        onChange={(next) => {
          setValues(next);
          if (server.password && next.password !== values.password) setServer({});
        }}
        onFiles={onFiles}
        onRemoveFile={(k) => setFiles((current) => removeFile(current, k))}
        onSubmit={() => void send()}
      />
    </div>
  );
}
