import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../lib/config';

/** A friendly full-page message with a way back home (expired, not found, errors). */
export function MessagePage({
  title,
  text,
  icon,
  testId,
}: {
  title: string;
  text: string;
  icon: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="page-center" data-testid={testId}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <div className="panel message-panel">
        <div className="message-icon" aria-hidden="true">
          {icon}
        </div>
        <h1 className="panel-title">{title}</h1>
        <p className="muted">{text}</p>
        <Link to="/" className="button button-primary">
          {t('common:go_home', { product: PRODUCT_NAME })}
        </Link>
      </div>
    </div>
  );
}
