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

export function ProgressSidebar({ application, currentStep }: { application: ProgressApplication | null; currentStep: StepId | null }) {
  const sections = buildProgress(application, currentStep);
  return (
    <nav className="ef-progress" aria-label="Application progress">
      <ol className="ef-progress__sections">
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
