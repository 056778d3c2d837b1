import { Trans, useLingui } from '@lingui/react';
import { Button, Dialog } from '@cmsgov/design-system';
import { NARROW_SCREEN, useMediaQuery } from '@/lib/media';
import type { PlanView } from '../types';
import { planNameText } from '../utils/plan-name';
import type { CompareColumn, PlanKind } from '../utils/plan-kinds';
import { PlanName } from './plan-name';

interface Props {
  isOpen: boolean;
  kind: PlanKind;
  plans: readonly PlanView[];
  householdSize: number;
  printing: boolean;
  onRemove: (plan: PlanView) => void;
  onPrint: () => void;
  onClose: () => void;
}

export const NOTHING_TO_COMPARE = /*i18n*/ { id: 'Please choose plans to compare' };

/**
 * On a phone, one card per plan instead of a table too wide for the screen: the monthly premium
 * first and large, then the table's columns in their order, then Remove. Nothing scrolls sideways.
 */
function CompareCards({ plans, columns, onRemove }: { plans: readonly PlanView[]; columns: CompareColumn[]; onRemove: (plan: PlanView) => void }) {
  const { i18n } = useLingui();
  const premium = columns.find((c) => c.premium);
  const rest = columns.filter((c) => !c.premium);
  return (
    <ul className="ef-compare-cards" aria-label={i18n._('Plans compared')}>
      {plans.map((p) => {
        const headingId = `ef-compare-card-${p.id}`;
        return (
          <li key={p.id} className="ef-compare-card" aria-labelledby={headingId}>
            <h3 className="ef-compare-card__name" id={headingId}>
              <PlanName html={p.name} />
              <span className="ef-compare__carrier">{p.carrier_name}</span>
            </h3>
            <dl className="ef-compare-card__details">
              {premium && (
                <div className="ef-compare-card__premium">
                  <dt>{premium.header}</dt>
                  <dd>{premium.value(p)}</dd>
                </div>
              )}
              {rest.map((c) => (
                <div key={c.header}>
                  <dt>{c.header}</dt>
                  <dd>{c.value(p)}</dd>
                </div>
              ))}
            </dl>
            <Button size="small" onClick={() => onRemove(p)} aria-label={i18n._('Remove {plan}', { plan: planNameText(p.name) })}>
              <Trans id="Remove" />
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

/** The compare modal (spec part 1, 2.8 and 2.10): one row per plan, a remove button each; cards on a phone. */
export function CompareDialog({ isOpen, kind, plans, householdSize, printing, onRemove, onPrint, onClose }: Props) {
  const { i18n } = useLingui();
  const columns = kind.compare(householdSize, i18n);
  const narrow = useMediaQuery(NARROW_SCREEN);
  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      size="full"
      heading={i18n._(kind.compareHeading)}
      actions={
        <div className="ef-compare__actions">
          <Button variation="solid" onClick={onPrint} disabled={printing || plans.length === 0}>
            {printing ? i18n._('Printing…') : i18n._('Print this comparison')}
          </Button>
          <Button onClick={onClose}>
            <Trans id="Close" />
          </Button>
        </div>
      }
    >
      {plans.length === 0 ? (
        <p>{i18n._(NOTHING_TO_COMPARE)}</p>
      ) : narrow ? (
        <CompareCards plans={plans} columns={columns} onRemove={onRemove} />
      ) : (
        <div className="ef-compare__scroll">
          <table className="ds-c-table ds-c-table--compact ef-compare">
            <caption className="ds-u-visibility--screen-reader">
              <Trans id="Plans compared" />
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans id="Plan" />
                </th>
                {columns.map((c) => (
                  <th scope="col" key={c.header}>
                    {c.header}
                  </th>
                ))}
                <th scope="col">
                  <span className="ds-u-visibility--screen-reader">
                    <Trans id="Remove" />
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {plans.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    <PlanName html={p.name} />
                    <span className="ef-compare__carrier">{p.carrier_name}</span>
                  </th>
                  {columns.map((c) => (
                    <td key={c.header}>{c.value(p)}</td>
                  ))}
                  <td>
                    <Button
                      size="small"
                      variation="ghost"
                      onClick={() => onRemove(p)}
                      aria-label={i18n._('Remove {plan}', { plan: planNameText(p.name) })}
                    >
                      <Trans id="Remove" />
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  );
}
