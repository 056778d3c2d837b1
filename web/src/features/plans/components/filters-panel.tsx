import { useId, useState, type ChangeEvent } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Button, ChoiceList } from '@cmsgov/design-system';
import type { MessageDescriptor } from '@lingui/core';
import type { FilterOptions, PriceRange } from '../types';
import { hasFilters, isTicked, NO_FILTERS, toggleOption, type FilterGroup, type FilterState } from '../utils/filter-tokens';
import { PriceRangeSlider } from './price-range-slider';

const GROUPS: readonly { group: FilterGroup; label: MessageDescriptor }[] = [
  { group: 'carriers', label: /*i18n*/ { id: 'Carrier' } },
  { group: 'networks', label: /*i18n*/ { id: 'Network' } },
  { group: 'metals', label: /*i18n*/ { id: 'Metal' } },
  { group: 'attributes', label: /*i18n*/ { id: 'Other' } },
];

interface Props {
  options: FilterOptions | null;
  optionsError: string | null;
  state: FilterState;
  onChange: (state: FilterState) => void;
  range: PriceRange | null;
}

/**
 * The collapsible Filters panel (spec part 1, 2.7): the groups the server lists options for
 * (carrier, network, metal, other) and the price slider.
 */
export function FiltersPanel({ options, optionsError, state, onChange, range }: Props) {
  const { i18n } = useLingui();
  const [open, setOpen] = useState(true);
  const id = useId();
  const bodyId = `${id}-filters`;
  return (
    <section className="ef-filters" aria-labelledby={`${id}-heading`}>
      <h2 className="ef-filters__heading" id={`${id}-heading`}>
        <button
          type="button"
          className="ef-filters__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
        >
          <Trans id="Filters" />
          <span className="ef-filters__chevron" aria-hidden="true">
            {open ? '−' : '+'}
          </span>
        </button>
      </h2>
      <div id={bodyId} className="ef-filters__body" hidden={!open}>
        {optionsError && (
          <Alert variation="error" headingLevel="3" heading={i18n._('The filters could not be loaded')}>
            {optionsError}
          </Alert>
        )}
        <div className="ef-filters__groups">
          {options &&
            GROUPS.filter(({ group }) => options[group].length > 0).map(({ group, label }) => (
              <ChoiceList
                key={group}
                className="ef-filters__group"
                name={`${id}-${group}`}
                type="checkbox"
                size="small"
                label={i18n._(label)}
                choices={options[group].map((option) => ({
                  label: option.name,
                  value: String(option.id),
                  checked: isTicked(state, group, option),
                }))}
                onChange={(e: ChangeEvent<HTMLInputElement>) => {
                  const option = options[group].find((o) => String(o.id) === e.target.value);
                  if (option) onChange(toggleOption(state, group, option, e.target.checked));
                }}
              />
            ))}
          {range && (
            <PriceRangeSlider range={range} value={state.price} onChange={(price) => onChange({ ...state, price })} />
          )}
        </div>
        {hasFilters(state, range) && (
          <Button variation="ghost" size="small" onClick={() => onChange(NO_FILTERS)}>
            <Trans id="Clear filters" />
          </Button>
        )}
      </div>
    </section>
  );
}
