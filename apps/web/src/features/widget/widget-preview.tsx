import { useTranslation } from 'react-i18next';
import type { FilledTheme } from './theme';
import { WidgetForm, type WidgetFormPoint } from './widget-form';
import { EMPTY_VALUES } from './widget-form-state';
import { WidgetFrame } from './widget-frame';
import './widget.css';

const ignore = () => undefined;

/**
 * A live preview for the owner: the upload card as visitors will see it with the colours and fields being
 * edited (inert: nothing can be typed or sent, and it is not in the tab order).
 */
export function WidgetPreview(props: {
  theme: FilledTheme;
  title: string | null;
  ownerName?: string | null;
  message?: string | null;
  point: WidgetFormPoint;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <figure className="widget-preview" data-testid={props.testId}>
      <figcaption className="field-label">{t('account:inboxes.preview')}</figcaption>
      <WidgetFrame
        theme={props.theme}
        title={props.title}
        ownerName={props.ownerName}
        message={props.message}
        preview
      >
        <WidgetForm
          point={props.point}
          values={EMPTY_VALUES}
          files={[]}
          problems={{}}
          notices={[]}
          failure={null}
          busy={false}
          preview
          onChange={ignore}
          onFiles={ignore}
          onRemoveFile={ignore}
          onSubmit={ignore}
        />
      </WidgetFrame>
    </figure>
  );
}
