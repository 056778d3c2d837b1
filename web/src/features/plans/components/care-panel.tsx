import { lazy, Suspense, useState } from 'react';
import { useLingui } from '@lingui/react';
import { NARROW_SCREEN, useMediaQuery } from '@/lib/media';
import type { CareNeeds, MemberRate } from '../types';
import { hasDoctorsOrDrugs } from '../utils/care';

export const DOCTOR_COUNT = /*i18n*/ { id: '{count, plural, one {# doctor} other {# doctors}}' };
export const PRESCRIPTION_COUNT = /*i18n*/ { id: '{count, plural, one {# prescription} other {# prescriptions}}' };

/**
 * What the panel holds (each member's expected use, the doctors and prescriptions with their
 * searches) loads when it is first opened: a plan page draws its cards without it. Should the file
 * fail to arrive, the panel says so.
 */
const CareEditor = lazy(() =>
  import('./care-editor').then(
    (m) => ({ default: m.CareEditor }),
    () => ({ default: EditorMissing }),
  ),
);

function EditorMissing() {
  const { i18n } = useLingui();
  return <p className="ef-care__failed">{i18n._('This part of the page could not be loaded. Please reload the page.')}</p>;
}

interface CarePanelProps {
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
 * "Your care", above the medical plans (stored with the application, PUT /api/care): each member's
 * expected use of care, which the yearly estimates follow, and the household's doctors and
 * prescriptions, which each card then says it covers or not. Its summary counts them. On a phone it
 * starts closed; on a wider screen it starts open when the household already lists a doctor or drug.
 */
export function CarePanel({ members, estimated, care, saving, failed, onChange }: CarePanelProps) {
  const { i18n } = useLingui();
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [open, setOpen] = useState(() => !narrow && hasDoctorsOrDrugs(care));
  const doctors = care.doctors.length;
  const drugs = care.drugs.length;

  return (
    <details className="ef-care" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="ef-care__summary">
        <span className="ef-care__title">
          {doctors + drugs > 0
            ? i18n._('Your care: {doctors}, {prescriptions}', {
                doctors: i18n._(DOCTOR_COUNT.id, { count: doctors }),
                prescriptions: i18n._(PRESCRIPTION_COUNT.id, { count: drugs }),
              })
            : i18n._('Your care')}
        </span>{' '}
        <span className="ef-care__what">
          {estimated ? i18n._('Expected use of care, doctors and prescriptions') : i18n._('Doctors and prescriptions')}
        </span>
      </summary>
      {open && (
        <Suspense fallback={<p className="ef-care__loading">{i18n._('Loading')}</p>}>
          <CareEditor members={members} estimated={estimated} care={care} saving={saving} failed={failed} onChange={onChange} />
        </Suspense>
      )}
    </details>
  );
}
