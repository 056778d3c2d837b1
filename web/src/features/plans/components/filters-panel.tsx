import { useId, useState, type ChangeEvent } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Alert, Button, ChoiceList, Dialog } from '@cmsgov/design-system';
import type { MessageDescriptor } from '@lingui/core';
import { NARROW_SCREEN, useMediaQuery } from '@/lib/media';
import type { FilterOptions, PriceRange } from '../types';
import { filterCount, hasFilters, isTicked, NO_FILTERS, toggleOption, type FilterGroup, type FilterState } from '../utils/filter-tokens';
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

/** The Filters button's text on a phone: how many filters are on. */
export const FILTERS_ON = /*i18n*/ { id: 'Filters ({count} on)' };

/**
 * The collapsible Filters panel (spec part 1, 2.7): the groups the server lists options for
 * (carrier, network, metal, other) and the price slider. On a wide screen it sits open above the
 * plans; on a narrow one (a phone) the plans come first, and the filters open from a "Filters"
 * button that says how many are on, in a sheet with Apply and Clear.
 */
export function FiltersPanel(props: Props) {
  return useMediaQuery(NARROW_SCREEN) ? <FiltersSheet {...props} /> : <FiltersInline {...props} />;
}

function FiltersInline({ options, optionsError, state, onChange, range }: Props) {
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
        <FilterGroups options={options} optionsError={optionsError} state={state} onChange={onChange} range={range} />
        {hasFilters(state, range) && (
          <Button variation="ghost" size="small" onClick={() => onChange(NO_FILTERS)}>
            <Trans id="Clear filters" />
          </Button>
        )}
      </div>
    </section>
  );
}

/** The phone's filters: a button, and a sheet whose choices apply only with Apply. */
function FiltersSheet({ options, optionsError, state, onChange, range }: Props) {
  const { i18n } = useLingui();
  const [draft, setDraft] = useState<FilterState | null>(null);
  const count = filterCount(state, range);
  return (
    <div className="ef-filters-bar">
      <Button size="small" aria-haspopup="dialog" onClick={() => setDraft(state)}>
        {count > 0 ? i18n._(FILTERS_ON.id, { count }) : i18n._('Filters')}
      </Button>
      {hasFilters(state, range) && (
        <Button variation="ghost" size="small" onClick={() => onChange(NO_FILTERS)}>
          <Trans id="Clear filters" />
        </Button>
      )}
      <Dialog
        isOpen={draft !== null}
        onExit={() => setDraft(null)}
        className="ef-filters-sheet"
        heading={i18n._('Filters')}
        actions={
          <div className="ef-filters-sheet__actions">
            <Button
              variation="solid"
              onClick={() => {
                if (draft) onChange(draft);
                setDraft(null);
              }}
            >
              <Trans id="Apply" />
            </Button>
            <Button onClick={() => setDraft(NO_FILTERS)}>
              <Trans id="Clear" />
            </Button>
          </div>
        }
      >
        {draft && <FilterGroups options={options} optionsError={optionsError} state={draft} onChange={setDraft} range={range} />}
      </Dialog>
    </div>
  );
}

/** The filter groups and the price slider, changing `state` through `onChange`. */
function FilterGroups({ options, optionsError, state, onChange, range }: Props) {
  const { i18n } = useLingui();
  const id = useId();
  return (
    <>
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
        {range && <PriceRangeSlider range={range} value={state.price} onChange={(price) => onChange({ ...state, price })} />}
      </div>
    </>
  );
}
