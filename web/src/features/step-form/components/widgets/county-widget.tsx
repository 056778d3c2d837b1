import { useEffect, useRef, useState } from 'react';
import { InlineError } from '@cmsgov/design-system';
import type { WidgetProps } from '@rjsf/utils';
import type { CountyOption } from '@/types/api';
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
//   ZIP and the county.

const ZIP = /^\d{5}$/;

interface Loaded {
  zip: string;
  counties: CountyOption[];
}

export function CountyWidget(props: WidgetProps) {
  const ctx = stepContext(props.registry);
  const opts = efOptions(props);
  const path = opts.efPath ?? [];
  const zip = typeof opts.zipValue === 'string' && ZIP.test(opts.zipValue) ? opts.zipValue : null;
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
    getCountyList(applicationId, zip)
      .then(
        (counties) => {
          if (!live) return;
          setLoaded({ zip, counties });
          // A ZIP outside the catalog (not in Michigan) has no county at all.
          if (counties.length === 0) residencyRef.current(zip);
        },
        () => {
          // The list could not be loaded: no choices; the save will say the county is missing.
          if (live) setLoaded({ zip, counties: [] });
        },
      )
      .finally(() => {
        if (live) ctxRef.current.setBusy(key, false);
      });
    return () => {
      live = false;
      c.setBusy(key, false);
    };
  }, [useServerList, zip, applicationId, key]);

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
    return error ? <InlineError id={`${props.id}__error`}>{error}</InlineError> : null;
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
