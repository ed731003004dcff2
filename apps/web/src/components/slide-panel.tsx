import { SLIDER_ANIMATION_DELAY_MS } from '@ferry/core';
import { type CSSProperties, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { CloseIcon } from './icons';
import { REDUCED_MOTION_QUERY, useMediaQuery } from './slide-panel-media';
import './slide-panel.css';

/** Spec §4: the states of the sliding content panel. */
export const SLIDE_PANEL_STATES = ['closed', 'two_third', 'full', 'immersive'] as const;
export type SlidePanelState = (typeof SLIDE_PANEL_STATES)[number];

interface SlidePanelProps {
  state: Exclude<SlidePanelState, 'closed'>;
  /** Shown at the top of the panel, and names its region for assistive technology. */
  label: string;
  closeLabel: string;
  /** Called once the closing slide is over (at once when the user asked for reduced motion). */
  onClose: () => void;
  children: ReactNode;
}

/**
 * The sliding content panel of spec §2: it slides in when it opens and out when its close button is pressed,
 * over SLIDER_ANIMATION_DELAY_MS (spec §9), and only then calls `onClose`; with reduced motion nothing slides.
 * It takes focus when it opens so that keyboard and screen reader users land in it.
 */
export function SlidePanel({ state, label, closeLabel, onClose, children }: SlidePanelProps) {
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const labelId = useId();
  const [closing, setClosing] = useState(false);
  const region = useRef<HTMLElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    region.current?.focus({ preventScroll: true });
    return () => {
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, []);

  const close = () => {
    if (reducedMotion) {
      onClose();
      return;
    }
    if (closing) return;
    setClosing(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setClosing(false);
      onClose();
    }, SLIDER_ANIMATION_DELAY_MS);
  };

  const style = { '--slide-panel-duration': `${SLIDER_ANIMATION_DELAY_MS}ms` } as CSSProperties;
  return (
    <section
      ref={region}
      className="slide-panel"
      data-state={state}
      data-phase={closing ? 'closing' : 'open'}
      data-motion={reducedMotion ? 'reduced' : 'full'}
      aria-labelledby={labelId}
      tabIndex={-1}
      style={style}
      data-testid="slide-panel"
    >
      <div className="slide-panel-bar">
        <p className="slide-panel-label" id={labelId}>
          {label}
        </p>
        <button
          type="button"
          className="icon-button slide-panel-close"
          aria-label={closeLabel}
          title={closeLabel}
          onClick={close}
          data-testid="slide-panel-close"
        >
          <CloseIcon />
        </button>
      </div>
      <div className="slide-panel-body">{children}</div>
    </section>
  );
}
