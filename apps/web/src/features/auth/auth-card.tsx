import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../lib/config';

/** The frame of the sign-in, sign-up and password pages: one centred card with a heading. */
export function AuthCard({
  title,
  testId,
  children,
  state,
}: {
  title: string;
  testId: string;
  children: ReactNode;
  /** Exposed as data-state for tests. */
  state?: string;
}) {
  return (
    <div className="page-center" data-testid={testId} data-state={state}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <div className="panel auth-panel">
        <h1 className="panel-title">{title}</h1>
        {children}
      </div>
    </div>
  );
}
