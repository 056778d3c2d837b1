import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { StepId } from '@/lib/steps';
import { buildProgress, type ProgressApplication, type ProgressItem } from '../utils/build-progress';

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
 * The wizard's progress (spec part 1, 2.3). Below 768 px it collapses to "Step N of M" with a
 * toggle, so that on a phone the form comes first; from 768 px the whole list is shown.
 */
export function ProgressSidebar({ application, currentStep }: { application: ProgressApplication | null; currentStep: StepId | null }) {
  const sections = buildProgress(application, currentStep);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const items = sections.flatMap((s) => s.items);
  const at = items.findIndex((i) => i.current);
  const summary = at >= 0 ? `Step ${at + 1} of ${items.length}` : 'Application progress';
  const current = at >= 0 ? items[at]?.label : undefined;
  return (
    <nav className="ef-progress" aria-label="Application progress">
      <button
        type="button"
        className="ef-progress__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="ef-progress__summary">{summary}</span>
        {current && <span className="ef-progress__current">: {current}</span>}
        <span className="ds-u-visibility--screen-reader">{open ? ', hide all steps' : ', show all steps'}</span>
        <span className="ef-progress__chevron" aria-hidden="true">
          {open ? '▲' : '▼'}
        </span>
      </button>
      <ol id={listId} className={`ef-progress__sections${open ? ' ef-progress__sections--open' : ''}`}>
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
