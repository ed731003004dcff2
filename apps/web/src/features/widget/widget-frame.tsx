import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../../lib/config';
import { type FilledTheme, themeStyle } from './theme';

/**
 * The widget's themed card (spec §3 colours): a header band in the background colour with the inbox's title,
 * who receives and their words, then the content; the action and start-button colours are CSS variables the
 * content's links and buttons use.
 */
export function WidgetFrame(props: {
  theme: FilledTheme;
  title: string | null;
  /** The owner's logo (their account or team theme) at the top of the band; null: none. */
  logoURL?: string | null;
  ownerName?: string | null;
  message?: string | null;
  children: ReactNode;
  testId?: string;
  /** In a preview the title is not the page's heading. */
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const Title = props.preview ? 'p' : 'h1';
  return (
    <div className="widget-card" style={themeStyle(props.theme)} data-testid={props.testId}>
      <header className="widget-head">
        {props.logoURL && (
          <img className="brand-logo widget-logo" src={props.logoURL} alt="" data-testid="widget-logo" />
        )}
        <Title className="widget-title" data-testid={props.preview ? undefined : 'widget-title'}>
          {props.title || t('uploader:widget.default_title')}
        </Title>
        {props.ownerName && (
          <p className="widget-owner">{t('uploader:widget.to', { name: props.ownerName })}</p>
        )}
        {props.message && <p className="widget-message">{props.message}</p>}
      </header>
      <div className="widget-body">{props.children}</div>
      <p className="widget-foot">{t('uploader:widget.powered_by', { product: PRODUCT_NAME })}</p>
    </div>
  );
}
