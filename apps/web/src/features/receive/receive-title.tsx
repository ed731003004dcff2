import type { ReactNode } from 'react';

/**
 * The title area of spec §2 on the receive pages: a title and subtitle; on an upload page (S3) "Transfer files
 * to {recipient}" with the request's subject (or the inbox's title) below.
 */
export function ReceiveTitle({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string | null;
  children?: ReactNode;
}) {
  return (
    <div className="title-area">
      <h1 className="welcome-title" data-testid="receive-title">
        {title}
      </h1>
      {subtitle && (
        <p className="welcome-subtitle" data-testid="receive-subtitle">
          {subtitle}
        </p>
      )}
      {children}
    </div>
  );
}
