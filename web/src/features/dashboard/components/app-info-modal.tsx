import { Alert, Button, Dialog, Spinner } from '@cmsgov/design-system';
import { useEffect, useState } from 'react';
import { formatPremium } from '@/lib/money';
import { formatPhone } from '@/lib/phone';
import { getAppInfo } from '../api/get-app-info';
import type { AppInfo } from '../types';
import { DASHBOARD_ERROR } from './texts';

/** Street, second line, "City, ST 12345": the lines of an address that are filled in. */
export function addressLines(street?: string | null, street2?: string | null, city?: string | null, state?: string | null, zip?: string | null): string[] {
  const place = [city?.trim(), [state?.trim(), zip?.trim()].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [street?.trim(), street2?.trim(), place].filter((l): l is string => Boolean(l));
}

function Address({ lines }: { lines: string[] }) {
  return (
    <address className="ef-address">
      {lines.map((l) => (
        <span key={l} className="ds-u-display--block">
          {l}
        </span>
      ))}
    </address>
  );
}

const USE_WORDS: Record<string, string> = { low: 'Low', medium: 'Medium', high: 'High' };

/** The household's care needs as the consumer or agent listed them on the medical plan page. */
function CareRows({ care }: { care: NonNullable<AppInfo['care']> }) {
  const list = (items: string[]) =>
    items.length === 0 ? (
      'None listed'
    ) : (
      <ul className="ef-app-info__list">
        {items.map((d) => (
          <li key={d}>{d}</li>
        ))}
      </ul>
    );
  return (
    <>
      {care.uses.length > 0 && (
        <>
          <dt>Expected use of care</dt>
          <dd>{care.uses.map((u) => USE_WORDS[u] ?? u).join(', ')}</dd>
        </>
      )}
      <dt>Doctors</dt>
      <dd>{list(care.doctors)}</dd>
      <dt>Prescriptions</dt>
      <dd>{list(care.drugs)}</dd>
      {care.medical_plan && typeof care.yearly_cost === 'number' && (
        <>
          <dt>Estimated yearly cost</dt>
          <dd>
            {formatPremium(care.yearly_cost)} ({care.medical_plan})
          </dd>
        </>
      )}
    </>
  );
}

/** More Info (spec part 2, Quoting and Submissions): the subscriber's contact details and addresses. */
export function AppInfoModal({ applicationId, onClose }: { applicationId: string; onClose: () => void }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState(false);

  useEffect(() => {
    let active = true;
    getAppInfo(applicationId).then(
      (i) => {
        if (active) setInfo(i);
      },
      () => {
        if (active) setError(true);
      },
    );
    return () => {
      active = false;
    };
  }, [applicationId]);

  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="More Info"
      actions={
        <Button variation="solid" onClick={onClose}>
          Close
        </Button>
      }
    >
      {error ? (
        <Alert variation="error">{DASHBOARD_ERROR}</Alert>
      ) : !info ? (
        <Spinner aria-valuetext="Loading" role="status" />
      ) : (
        <dl className="ef-app-info">
          <dt>Name</dt>
          <dd>{info.primary_name}</dd>
          <dt>Phone</dt>
          <dd>{formatPhone(info.primary_phone)}</dd>
          <dt>E-mail</dt>
          <dd>{info.email}</dd>
          <dt>Residential Address</dt>
          <dd>
            <Address
              lines={addressLines(info.residential_street, info.residential_street2, info.residential_city, info.residential_state, info.residential_zip)}
            />
          </dd>
          {info.billing_provided && (
            <>
              <dt>Billing Address</dt>
              <dd>
                <Address lines={addressLines(info.billing_street, info.billing_street2, info.billing_city, info.billing_state, info.billing_zip)} />
              </dd>
            </>
          )}
          {info.care && <CareRows care={info.care} />}
        </dl>
      )}
    </Dialog>
  );
}
