import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { AlertIcon } from '../../components/icons';
import './widget.css';

/** A crash inside the widget: said in the frame, with no way into the rest of the app (it must not be framed). */
export function WidgetError() {
  const { t } = useTranslation();
  console.error(useRouteError());
  return (
    <div className="widget-root" data-testid="page-error">
      <div className="widget-card">
        <div className="widget-body widget-message-box" role="alert">
          <AlertIcon />
          <div>
            <h1 className="widget-receipt-title">{t('common:crash_title')}</h1>
            <p>{t('uploader:widget.crash_text')}</p>
          </div>
        </div>
      </div>
    </div>
  );
}
