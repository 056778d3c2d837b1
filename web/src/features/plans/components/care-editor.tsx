import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react';
import { Button } from '@cmsgov/design-system';
import type { I18n } from '@lingui/core';
import { searchDrugs } from '../api/search-drugs';
import { searchProviders } from '../api/search-providers';
import type { CareNeeds, CareUse, DrugHit, MemberRate, ProviderHit } from '../types';
import { fullUses, isProviderQuery, withDoctor, withDrug, withoutDoctor, withoutDrug } from '../utils/care-edits';
import { Typeahead } from './typeahead';

export const CARE_USES: readonly CareUse[] = ['low', 'medium', 'high'];

const CARE_USE_LABELS: Record<CareUse, { id: string }> = {
  low: /*i18n*/ { id: 'Low: a checkup or two, few prescriptions' },
  medium: /*i18n*/ { id: 'Medium: some visits and regular prescriptions' },
  high: /*i18n*/ { id: 'High: frequent care, a hospital stay or costly drugs' },
};

export const SAVE_CARE_FAILED = /*i18n*/ {
  id: 'Your change could not be saved, so your list is as it was last saved. Please try again.',
};

/** A doctor's specialty and city (a facility says so), for the search's hits and the list. */
export function providerDetails(hit: ProviderHit, i18n: I18n): string {
  return [hit.kind === 'facility' ? i18n._('Facility') : null, hit.specialty, hit.city].filter(Boolean).join(' · ');
}

function ProviderText({ hit }: { hit: ProviderHit }) {
  const { i18n } = useLingui();
  const details = providerDetails(hit, i18n);
  return (
    <>
      <span className="ef-care__name">{hit.name}</span>
      {details && (
        <>
          {' '}
          <span className="ef-care__detail">{details}</span>
        </>
      )}
    </>
  );
}

interface ListProps<T> {
  heading: string;
  empty: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  itemName: (item: T) => string;
  render: (item: T) => ReactNode;
  onRemove: (item: T) => void;
  /** The search that adds to the list. */
  children: ReactNode;
}

/** One list of the panel (doctors, prescriptions): its items with Remove, then the search that adds. */
function CareList<T>({ heading, empty, items, itemKey, itemName, render, onRemove, children }: ListProps<T>) {
  const { i18n } = useLingui();
  const id = useId();
  const list = useRef<HTMLUListElement>(null);
  const section = useRef<HTMLElement>(null);
  // After a Remove, the focus goes to the next item's Remove (the last one's, or the search when the
  // list is empty), not to the page's top with the button it was on.
  const refocus = useRef<number | null>(null);
  useLayoutEffect(() => {
    const removed = refocus.current;
    if (removed === null) return;
    refocus.current = null;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('.ef-care__remove') ?? [];
    const target = buttons[Math.min(removed, buttons.length - 1)] ?? section.current?.querySelector<HTMLInputElement>('input');
    target?.focus();
  });

  return (
    <section className="ef-care__section" aria-labelledby={`${id}-heading`} ref={section}>
      <h2 className="ef-care__heading" id={`${id}-heading`}>
        {heading}
      </h2>
      {items.length === 0 ? (
        <p className="ef-care__none">{empty}</p>
      ) : (
        <ul className="ef-care__items" ref={list}>
          {items.map((item, i) => (
            <li key={itemKey(item)} className="ef-care__item">
              <span className="ef-care__item-text">{render(item)}</span>
              <Button
                size="small"
                className="ef-care__remove"
                aria-label={i18n._('Remove {name}', { name: itemName(item) })}
                onClick={() => {
                  refocus.current = i;
                  onRemove(item);
                }}
              >
                {i18n._('Remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}

/** Each member's expected use of care, which the yearly estimates follow. */
function MemberUses({ members, care, onChange }: { members: readonly MemberRate[]; care: CareNeeds; onChange: (care: CareNeeds) => void }) {
  const { i18n } = useLingui();
  const id = useId();
  return (
    <div className="ef-care__section">
      <h2 className="ef-care__heading">{i18n._('Expected use')}</h2>
      <p className="ef-care__hint">{i18n._('The yearly estimates follow how much care each member expects to use.')}</p>
      <div className="ef-care__members">
        {members.map((m, i) => {
          const select = `${id}-use-${i}`;
          return (
            <div key={i} className="ef-care__member">
              <label className="ds-c-label" htmlFor={select}>
                {i18n._('{member}, age {age}', { member: m.member, age: m.age })}
              </label>
              <select
                id={select}
                className="ds-c-field"
                value={care.uses[i] ?? 'medium'}
                onChange={(e) => {
                  const uses = [...care.uses];
                  uses[i] = e.target.value as CareUse;
                  onChange({ ...care, uses });
                }}
              >
                {CARE_USES.map((u) => (
                  <option key={u} value={u}>
                    {i18n._(CARE_USE_LABELS[u])}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface Props {
  /** The household's members as the plans rate them ("Subscriber", 42). */
  members: readonly MemberRate[];
  /** The plans carry yearly estimates: each member's expected use is asked. */
  estimated: boolean;
  /** The list shown (the change being saved, else the saved one). */
  care: CareNeeds;
  saving: boolean;
  /** The last change could not be saved (`care` is the saved list again). */
  failed: boolean;
  /** Saves the whole list. */
  onChange: (care: CareNeeds) => void;
}

/**
 * What "Your care" holds, loaded when it is first opened: each member's expected use of care, the
 * doctors and the prescriptions (each listed with Remove, each added through a search), whether a
 * change is being saved, and a change that could not be.
 */
export function CareEditor({ members, estimated, care: shown, saving, failed, onChange }: Props) {
  const { i18n } = useLingui();
  // One use for each member: PUT /api/care refuses a list of another length.
  const care: CareNeeds = { ...shown, uses: fullUses(shown.uses, members.length) };
  // What was just added or removed, said to screen readers (the list's change is silent).
  const [said, setSaid] = useState('');

  return (
    <div className="ef-care__body">
      {estimated && <MemberUses members={members} care={care} onChange={onChange} />}
      <p className="ef-care__hint">
        {i18n._('Each medical plan then says whether your doctors are in its network and whether it covers your prescriptions.')}
      </p>
      <CareList
        heading={i18n._('Your doctors')}
        empty={i18n._('No doctors added yet.')}
        items={care.doctors}
        itemKey={(d) => d.npi}
        itemName={(d) => d.name}
        render={(d) => <ProviderText hit={d} />}
        onRemove={(d) => {
          onChange(withoutDoctor(care, d.npi));
          setSaid(i18n._('Removed {name}', { name: d.name }));
        }}
      >
        <Typeahead<ProviderHit>
          label={i18n._('Add a doctor or facility')}
          hint={i18n._('Type a name (at least 2 letters) or a 10-digit NPI.')}
          search={searchProviders}
          searchable={isProviderQuery}
          hitKey={(h) => h.npi}
          render={(h) => <ProviderText hit={h} />}
          onPick={(h) => {
            const next = withDoctor(care, h);
            if (next === care) {
              setSaid(i18n._('{name} is already on your list', { name: h.name }));
              return;
            }
            onChange(next);
            setSaid(i18n._('Added {name}', { name: h.name }));
          }}
        />
      </CareList>
      <CareList
        heading={i18n._('Your prescriptions')}
        empty={i18n._('No prescriptions added yet.')}
        items={care.drugs}
        itemKey={(d) => d.rxnorm_id}
        itemName={(d) => d.name}
        render={(d) => <span className="ef-care__name">{d.name}</span>}
        onRemove={(d) => {
          onChange(withoutDrug(care, d.rxnorm_id));
          setSaid(i18n._('Removed {name}', { name: d.name }));
        }}
      >
        <Typeahead<DrugHit>
          label={i18n._('Add a prescription drug')}
          hint={i18n._('Type the name of the drug (at least 2 letters).')}
          search={searchDrugs}
          hitKey={(h) => h.rxnorm_id}
          render={(h) => <span className="ef-care__name">{h.name}</span>}
          onPick={(h) => {
            const next = withDrug(care, h);
            if (next === care) {
              setSaid(i18n._('{name} is already on your list', { name: h.name }));
              return;
            }
            onChange(next);
            setSaid(i18n._('Added {name}', { name: h.name }));
          }}
        />
      </CareList>
      <p role="status" className="ds-u-visibility--screen-reader">
        {said}
      </p>
      <p role="status" className="ef-care__status">
        {saving ? i18n._('Saving…') : ''}
      </p>
      {failed && (
        <p role="alert" className="ef-care__failed">
          {i18n._(SAVE_CARE_FAILED)}
        </p>
      )}
    </div>
  );
}
