import { useEffect, useRef, useState } from 'react';
import { InlineError } from '@cmsgov/design-system';
import type { WidgetProps } from '@rjsf/utils';
import type { CountyOption } from '@/types/api';
import { ApiError } from '@/lib/api-client';
import { getBillingCounties } from '../../api/get-billing-counties';
import { getCountyList } from '../../api/get-county-list';
import { stepContext } from '../form-context';
import { SelectField } from './choice-widgets';
import { busyKey, efOptions, errorOf } from './parts';

// The county of a ZIP (spec part 1, 5 and 4.3.10; part 2, 4 "billing county"):
// `ui:options: { zipField, outOfStateId, outOfStateModal }`.
// - the counties are those the server lists for the sibling ZIP once it has 5 digits (or the
//   field's own choices when the form gives some); Continue waits while they load;
// - a new ZIP clears the county; a ZIP with one county chooses it and the select is not shown;
// - the out-of-state county (or a ZIP with no county at all) opens the form's residency dialog
//   (`outOfStateModal`, by default `residency`; its text may name `{zip}`), whose closing clears the
//   ZIP and the county;
// - with `stateField` (a billing address, which may be outside Michigan) the counties come from
//   billingStateZip/{state}/{zip}: a Michigan ZIP's counties, none for another state (nothing to
//   choose, no residency dialog), and the server's word when the ZIP is not the state's.

const ZIP = /^\d{5}$/;

interface Loaded {
  /** The ZIP (and state) the list is for. */
  zip: string;
  counties: CountyOption[];
  /** Why the ZIP has no counties, when the server said (a ZIP of another state). */
  problem?: string;
}

/** The server's message for a refused ZIP (`{ errors: { billing_zip: [...] } }`). */
function zipProblem(e: unknown): string | undefined {
  if (!(e instanceof ApiError) || e.status !== 422) return undefined;
  const first = Object.values(e.fieldErrors ?? {})[0];
  return Array.isArray(first) && typeof first[0] === 'string' ? first[0] : undefined;
}

export function CountyWidget(props: WidgetProps) {
  const ctx = stepContext(props.registry);
  const opts = efOptions(props);
  const path = opts.efPath ?? [];
  const rawZip = typeof opts.zipValue === 'string' && ZIP.test(opts.zipValue) ? opts.zipValue : null;
  const byState = typeof opts.stateField === 'string';
  const state = typeof opts.stateValue === 'string' && opts.stateValue !== '' ? opts.stateValue : null;
  // A county by state and ZIP waits for both; the key names both, so a new state reloads too.
  const zip = byState ? (rawZip && state ? `${state}/${rawZip}` : null) : rawZip;
  const outOfStateId = typeof opts.outOfStateId === 'number' ? opts.outOfStateId : null;
  const fixed = props.options.enumOptions ?? [];
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const key = busyKey(props);

  const ctxRef = useRef(ctx);
  useEffect(() => {
    ctxRef.current = ctx;
  });

  const residency = (forZip: string) => {
    const c = ctxRef.current;
    c.openModal({
      id: typeof opts.outOfStateModal === 'string' ? opts.outOfStateModal : 'residency',
      values: { zip: forZip },
      clear: [...(opts.zipPath ? [opts.zipPath] : []), path],
    });
  };
  const residencyRef = useRef(residency);
  useEffect(() => {
    residencyRef.current = residency;
  });

  // A changed ZIP (not the one the page opened with) clears the county.
  const shownZip = useRef(zip);
  const { value, onChange } = props;
  useEffect(() => {
    if (shownZip.current === zip) return;
    shownZip.current = zip;
    if (value !== undefined) onChange(undefined);
  }, [zip, value, onChange]);

  const applicationId = ctx.applicationId;
  const useServerList = fixed.length === 0;
  useEffect(() => {
    if (!useServerList || !zip || !applicationId) return;
    let live = true;
    const c = ctxRef.current;
    c.setBusy(key, true);
    const [first, second] = zip.split('/');
    const request = byState && first && second ? getBillingCounties(applicationId, first, second) : getCountyList(applicationId, zip);
    request
      .then(
        (counties) => {
          if (!live) return;
          setLoaded({ zip, counties });
          // A residential ZIP outside the catalog (not in Michigan) has no county at all; a
          // billing ZIP of another state has none to choose, and that is fine.
          if (counties.length === 0 && !byState) residencyRef.current(zip);
        },
        (e: unknown) => {
          // The list could not be loaded: no choices; the save will say what is missing. A ZIP
          // the state does not have is said at once.
          if (live) setLoaded({ zip, counties: [], problem: zipProblem(e) });
        },
      )
      .finally(() => {
        if (live) ctxRef.current.setBusy(key, false);
      });
    return () => {
      live = false;
      c.setBusy(key, false);
    };
  }, [useServerList, zip, byState, applicationId, key]);

  const choices = useServerList
    ? loaded && loaded.zip === zip
      ? loaded.counties.map((c) => ({ label: c.description, value: c.id }))
      : []
    : fixed.map((c) => ({ label: c.label, value: c.value }));

  // One county: it is chosen, and the select is not shown.
  const onlyChoice = choices.length === 1 ? choices[0]?.value : undefined;
  useEffect(() => {
    if (onlyChoice !== undefined && value !== onlyChoice) onChange(onlyChoice);
  }, [onlyChoice, value, onChange]);

  if (choices.length <= 1) {
    const error = errorOf(props);
    if (error) return <InlineError id={`${props.id}__error`}>{error}</InlineError>;
    // A ZIP the billing state does not have: said at once, and announced.
    const problem = loaded && loaded.zip === zip ? loaded.problem : undefined;
    return problem ? (
      <div role="alert">
        <InlineError id={`${props.id}__error`}>{problem}</InlineError>
      </div>
    ) : null;
  }
  return (
    <SelectField
      props={props}
      choices={choices}
      onSelect={(v) => {
        props.onChange(v);
        if (outOfStateId !== null && v === outOfStateId && zip) residency(zip);
      }}
    />
  );
}
