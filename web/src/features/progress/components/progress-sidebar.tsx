import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Trans, useLingui } from '@lingui/react';
import type { Flow } from '@/lib/flow';
import { buildProgress, type ProgressItem } from '../utils/build-progress';
import './progress-sidebar.css';

function Item({ item }: { item: ProgressItem }) {
  const className = `ef-progress__item${item.current ? ' ef-progress__item--current' : ''}`;
  if (item.disabled && !item.current) {
    return (
      <li className={className}>
        <span className="ef-progress__link ef-progress__link--disabled" aria-disabled="true">
          {item.label}
        </span>
      </li>
    );
  }
  return (
    <li className={className}>
      <Link className="ef-progress__link" to={item.path} aria-current={item.current ? 'step' : undefined}>
        {item.label}
      </Link>
    </li>
  );
}

/**
 * The wizard's progress (spec part 1, 2.3). Below 768 px it collapses to "Step N of M" (N: the
 * current step's place among the steps listed, M: their count) with a toggle that opens the whole
 * list over the page, so that on a phone the form comes first and is never pushed down; from 768 px
 * the whole list is shown as before (the toggle is hidden: progress-sidebar.css, app.css).
 */
export function ProgressSidebar({ flow, currentStep }: { flow: Flow | null; currentStep: string | null }) {
  const { i18n } = useLingui();
  const sections = buildProgress(flow, currentStep);
  // Opened on a step: the list closes by itself when another step opens.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const here = currentStep ?? '';
  const open = openOn === here;
  const listId = useId();
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const items = sections.flatMap((s) => s.items);
  const at = items.findIndex((i) => i.current);
  // The step labels and section headings are the flow's, in the page's language already.
  const current = at >= 0 ? items[at]?.label : undefined;
  const summarySpan = <span className="ef-progress__summary" />;
  const summary =
    at < 0 ? (
      <span className="ef-progress__summary">
        <Trans id="Application progress" />
      </span>
    ) : current ? (
      <Trans
        id="<0>Step {number} of {count}</0>: {step}"
        values={{ number: at + 1, count: items.length, step: current }}
        components={{ 0: summarySpan }}
      />
    ) : (
      <Trans
        id="<0>Step {number} of {count}</0>"
        values={{ number: at + 1, count: items.length }}
        components={{ 0: summarySpan }}
      />
    );

  // Open over the page: a click or a tap outside it closes it.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (e.target instanceof Node && !nav.current?.contains(e.target)) setOpenOn(null);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    setOpenOn(null);
    toggle.current?.focus();
  };

  return (
    <nav ref={nav} className="ef-progress" aria-label={i18n._('Application progress')} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className="ef-progress__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpenOn(open ? null : here)}
      >
        <span className="ef-progress__label">{summary}</span>
        <span className="ds-u-visibility--screen-reader">{open ? i18n._(', hide all steps') : i18n._(', show all steps')}</span>
        <span className="ef-progress__chevron" aria-hidden="true">
          {open ? '▲' : '▼'}
        </span>
      </button>
      <ol
        id={listId}
        className={`ef-progress__sections${open ? ' ef-progress__sections--open' : ''}`}
        // A step chosen from the opened list: it closes as the step opens.
        onClick={(e) => {
          if (e.target instanceof Element && e.target.closest('a')) setOpenOn(null);
        }}
      >
        {sections.map((section) =>
          section.heading === null ? (
            section.items.map((item) => <Item key={item.id} item={item} />)
          ) : (
            <li key={section.heading} className="ef-progress__section">
              <span className="ef-progress__heading">{section.heading}</span>
              <ol className="ef-progress__items">
                {section.items.map((item) => (
                  <Item key={item.id} item={item} />
                ))}
              </ol>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
