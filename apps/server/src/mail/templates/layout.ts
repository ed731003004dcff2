// One package per component: the @react-email/components bundle would also load Tailwind, Prism and Markdown
// (about 30 MB of server memory) that no mail uses.
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { createElement as h, type ReactNode } from 'react';
import { isRtlMailLanguage, mailLanguageTag } from './i18n.js';

/** What every template returns: both parts, always. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** The pieces a mail is made of; `renderMail` turns them into the HTML part and the plain-text part alike. */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  /** Text someone wrote (a transfer's message): shown as written, line breaks kept. */
  | { kind: 'quote'; label: string; text: string }
  | {
      kind: 'files';
      label: string;
      summary: string;
      files: Array<{ name: string; size: string }>;
      more: string | null;
    }
  | { kind: 'facts'; rows: Array<{ label: string; value: string }> }
  /** The big button; the link is also written out under it, for clients that hide buttons. */
  | { kind: 'button'; label: string; url: string; copyHint: string }
  | { kind: 'code'; code: string };

/** An account's or team's look in its mails (its customization): a header image and two colours. */
export interface MailBrand {
  /** An absolute http(s) URL of the header image (Ferry serves it as PNG), or null. */
  headerImageUrl: string | null;
  /** The band above the mail. */
  backgroundColor: string;
  /** Buttons and links (readable as text on white and under white text: the theme rule checks it). */
  actionColor: string;
}

export interface MailContent {
  language: string;
  /** ": " or, in French, " : ". */
  colon: string;
  product: string;
  subject: string;
  /** The line mail clients show next to the subject. */
  preview: string;
  heading: string;
  blocks: MailBlock[];
  /** Small print: why this mail came. */
  footer: string[];
  unsubscribe?: { label: string; url: string };
  brand?: MailBrand;
}

const BRAND = '#4052B5';
const ACTION = '#3F51B5';
const INK = '#1f2430';
const MUTED = '#5f6677';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

const s = {
  body: { backgroundColor: '#f3f4f8', margin: 0, padding: '24px 0', fontFamily: FONT, color: INK },
  container: { backgroundColor: '#ffffff', borderRadius: '8px', maxWidth: '560px', padding: '32px' },
  logo: { color: BRAND, fontSize: '22px', fontWeight: 700, letterSpacing: '-0.5px', margin: '0 0 24px' },
  heading: { fontSize: '22px', lineHeight: '30px', margin: '0 0 16px', color: INK },
  text: { fontSize: '15px', lineHeight: '24px', margin: '0 0 16px', color: INK },
  label: { fontSize: '13px', lineHeight: '20px', margin: '0 0 4px', color: MUTED, fontWeight: 600 },
  quote: {
    fontSize: '15px',
    lineHeight: '24px',
    margin: '0 0 20px',
    padding: '12px 16px',
    borderLeft: `4px solid ${BRAND}`,
    backgroundColor: '#f6f7fb',
    color: INK,
  },
  cell: {
    fontSize: '14px',
    lineHeight: '22px',
    padding: '6px 0',
    borderBottom: '1px solid #eceef3',
    color: INK,
  },
  size: { textAlign: 'right' as const, whiteSpace: 'nowrap' as const, color: MUTED, paddingLeft: '12px' },
  button: {
    backgroundColor: ACTION,
    color: '#ffffff',
    borderRadius: '6px',
    fontSize: '16px',
    fontWeight: 600,
    padding: '14px 28px',
    textDecoration: 'none',
  },
  link: { color: ACTION, fontSize: '13px', lineHeight: '20px', wordBreak: 'break-all' as const },
  code: {
    fontFamily: "'SFMono-Regular', Menlo, Consolas, monospace",
    fontSize: '32px',
    fontWeight: 700,
    letterSpacing: '8px',
    margin: '8px 0 16px',
    padding: '16px',
    textAlign: 'center' as const,
    backgroundColor: '#f6f7fb',
    borderRadius: '6px',
    color: INK,
  },
  footer: { fontSize: '12px', lineHeight: '18px', margin: '0 0 8px', color: MUTED },
};

/** Only web links: a URL in a mail is ours (built by a service), but a bad one must not become `javascript:`. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error('Mail links must be http(s)');
  return parsed.toString();
}

/** Lines joined with <br/>: every client keeps them, unlike white-space: pre-wrap. */
function withLineBreaks(text: string): ReactNode[] {
  return text
    .split(/\r\n|\r|\n/)
    .flatMap((line, i) => (i === 0 ? [line] : [h('br', { key: `b${i}` }), line]));
}

function htmlBlock(block: MailBlock, key: number, colon: string, rtl: boolean, action: string): ReactNode {
  const start = rtl ? 'right' : 'left';
  switch (block.kind) {
    case 'paragraph':
      return h(Text, { key, style: s.text }, block.text);
    case 'quote':
      return h(
        Section,
        { key },
        h(Text, { style: s.label }, block.label),
        h(Text, { style: s.quote }, ...withLineBreaks(block.text)),
      );
    case 'files':
      return h(
        Section,
        { key, style: { margin: '0 0 20px' } },
        h(Text, { style: s.label }, block.summary),
        h(
          'table',
          { width: '100%', cellPadding: 0, cellSpacing: 0, role: 'presentation' },
          h(
            'tbody',
            null,
            ...block.files.map((f, i) =>
              h(
                'tr',
                { key: i },
                h('td', { style: s.cell }, f.name),
                h(
                  'td',
                  {
                    style: {
                      ...s.cell,
                      ...s.size,
                      textAlign: rtl ? 'left' : 'right',
                      ...(rtl ? { paddingLeft: 0, paddingRight: '12px' } : {}),
                    },
                  },
                  f.size,
                ),
              ),
            ),
          ),
        ),
        block.more ? h(Text, { style: { ...s.footer, margin: '8px 0 0' } }, block.more) : null,
      );
    case 'facts':
      return h(
        Section,
        { key, style: { margin: '0 0 20px' } },
        ...block.rows.map((row, i) =>
          h(
            Text,
            { key: i, style: { ...s.text, margin: '0 0 8px' } },
            h('span', { style: { color: MUTED } }, `${row.label}${colon}`),
            h('strong', null, row.value),
          ),
        ),
      );
    case 'button': {
      const url = safeUrl(block.url);
      return h(
        Section,
        { key, style: { margin: '8px 0 24px', textAlign: 'center' } },
        h(Button, { href: url, style: { ...s.button, backgroundColor: action } }, block.label),
        h(Text, { style: { ...s.footer, margin: '20px 0 4px', textAlign: start } }, block.copyHint),
        // The address itself reads left to right in every language.
        h(
          Text,
          { style: { margin: 0, textAlign: start }, dir: 'ltr' },
          h(Link, { href: url, style: { ...s.link, color: action } }, url),
        ),
      );
    }
    case 'code':
      return h(Text, { key, style: s.code }, block.code);
  }
}

function textBlock(block: MailBlock, colon: string): string {
  const c = colon.trimEnd();
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'quote':
      return `${block.label}${c}\n${block.text
        .split(/\r\n|\r|\n/)
        .map((line) => `> ${line}`.trimEnd())
        .join('\n')}`;
    case 'files':
      return [
        `${block.label} (${block.summary})${c}`,
        ...block.files.map((f) => `- ${f.name} (${f.size})`),
        ...(block.more ? [`  ${block.more}`] : []),
      ].join('\n');
    case 'facts':
      return block.rows.map((row) => `${row.label}${colon}${row.value}`).join('\n');
    case 'button':
      return `${block.label}${colon}${safeUrl(block.url)}`;
    case 'code':
      return `    ${block.code}`;
  }
}

function textPart(mail: MailContent): string {
  const parts = [
    mail.product,
    mail.heading,
    ...mail.blocks.map((b) => textBlock(b, mail.colon)),
    '--',
    ...mail.footer,
  ];
  if (mail.unsubscribe) parts.push(`${mail.unsubscribe.label}${mail.colon}${safeUrl(mail.unsubscribe.url)}`);
  return `${parts.join('\n\n')}\n`;
}

/** The top of the mail: the owner's header image on their colour, or the product's name as a text logo. */
function header(mail: MailContent): ReactNode {
  const brand = mail.brand;
  if (!brand?.headerImageUrl)
    return h(
      Text,
      { style: { ...s.logo, ...(brand ? { color: brand.backgroundColor } : {}) } },
      mail.product,
    );
  return h(
    Section,
    {
      style: {
        backgroundColor: brand.backgroundColor,
        borderRadius: '6px',
        margin: '0 0 24px',
        padding: '12px',
      },
    },
    h('img', {
      src: safeUrl(brand.headerImageUrl),
      alt: mail.product,
      width: '100%',
      style: { display: 'block', maxWidth: '100%', height: 'auto', border: 0 },
    }),
  );
}

function document(mail: MailContent): ReactNode {
  const rtl = isRtlMailLanguage(mail.language);
  const action = mail.brand?.actionColor ?? ACTION;
  return h(
    Html,
    { lang: mailLanguageTag(mail.language), dir: rtl ? 'rtl' : 'ltr' },
    h(Head, null, h('title', null, mail.subject)),
    h(Preview, null, mail.preview),
    h(
      Body,
      { style: s.body },
      h(
        Container,
        { style: s.container },
        // A text logo (nothing to download before the mail reads right), or the owner's header image.
        header(mail),
        h(Heading, { as: 'h1', style: s.heading }, mail.heading),
        ...mail.blocks.map((block, i) => htmlBlock(block, i, mail.colon, rtl, action)),
        h(Hr, { style: { borderColor: '#eceef3', margin: '24px 0 16px' } }),
        ...mail.footer.map((line, i) => h(Text, { key: `f${i}`, style: s.footer }, line)),
        mail.unsubscribe
          ? h(
              Text,
              { style: s.footer },
              h(
                Link,
                { href: safeUrl(mail.unsubscribe.url), style: { ...s.link, fontSize: '12px' } },
                mail.unsubscribe.label,
              ),
            )
          : null,
      ),
    ),
  );
}

/** Both parts of a mail from its content; everything user-provided is escaped in the HTML by React. */
export async function renderMail(mail: MailContent): Promise<RenderedMail> {
  return { subject: mail.subject, html: await render(document(mail)), text: textPart(mail) };
}
