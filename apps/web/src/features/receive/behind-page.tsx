import { Suspense } from 'react';
import { LazyRequestFilesRoute, LazyUploaderRoute } from './behind-pages';
import { useReceiveMode } from './receive-mode';

/**
 * The page of the main layout behind the sliding panel (spec §2): the receiver in receive mode, the uploader
 * otherwise (spec §4). Switching between them unmounts the other, which is the wizard reset of spec §4 on
 * moving between S3 pages and others.
 */
export function BehindPage() {
  return (
    <Suspense fallback={<div aria-busy="true" />}>
      {useReceiveMode() ? <LazyRequestFilesRoute /> : <LazyUploaderRoute />}
    </Suspense>
  );
}
