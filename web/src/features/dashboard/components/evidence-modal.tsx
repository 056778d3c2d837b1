import { Alert, Button, Dialog, Spinner } from '@cmsgov/design-system';
import { useEffect, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';
import { downloadEvidence, evidenceFileName, getEvidence } from '../api/evidence';
import type { Evidence } from '../types';
import { DASHBOARD_ERROR } from './texts';

/** How often the dialog asks again while the PDF is drawn in the background. */
export const EVIDENCE_POLL_MS = 1000;

/**
 * A submission's evidence packet: what was submitted, quoted, agreed to and signed, as
 * stored at the purchase. The PDF is drawn in the background: the dialog says so and asks again
 * until it is ready; the JSON twin is ready at once. Both carry the packet's SHA-256, which
 * `enrollflow verify-packet` checks.
 */
export function EvidenceModal({ applicationId, onClose }: { applicationId: string; onClose: () => void }) {
  const [evidence, setEvidence] = useState<Evidence | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [downloadFailed, setDownloadFailed] = useState(false);

  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      getEvidence(applicationId).then(
        (e) => {
          if (!active) return;
          setEvidence(e);
          if (e.state === 'preparing') timer = setTimeout(ask, EVIDENCE_POLL_MS);
        },
        (e: unknown) => {
          if (!active) return;
          setProblem(e instanceof ApiError && e.status === 404 ? e.message : DASHBOARD_ERROR);
        },
      );
    };
    ask();
    return () => {
      active = false;
      if (timer) clearTimeout(timer);
    };
  }, [applicationId]);

  const download = async (format: 'pdf' | 'json') => {
    if (!evidence) return;
    try {
      saveFile(await downloadEvidence(applicationId, format), evidenceFileName(evidence.confirmation, format));
      setDownloadFailed(false);
    } catch {
      setDownloadFailed(true);
    }
  };

  const ready = evidence?.state === 'ready';
  return (
    <Dialog
      isOpen
      onExit={onClose}
      heading="Evidence Packet"
      actions={
        <>
          {evidence && (
            <Button variation="solid" className="ds-u-margin-right--1" disabled={!ready} onClick={() => void download('pdf')}>
              Download PDF
            </Button>
          )}
          {evidence && (
            <Button className="ds-u-margin-right--1" onClick={() => void download('json')}>
              Download JSON
            </Button>
          )}
          <Button variation="ghost" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {problem ? (
        <Alert variation={problem === DASHBOARD_ERROR ? 'error' : undefined}>{problem}</Alert>
      ) : !evidence ? (
        <Spinner aria-valuetext="Loading" role="status" />
      ) : (
        <>
          <p className="ds-u-margin-top--0">
            What was submitted, quoted, agreed to and signed, as stored when the application was purchased.
          </p>
          <dl className="ef-app-info">
            <dt>Confirmation Number</dt>
            <dd>{evidence.confirmation}</dd>
            <dt>Packet SHA-256</dt>
            <dd className="ef-evidence__hash">{evidence.sha256}</dd>
          </dl>
          <p role="status" aria-live="polite">
            {ready ? (
              'The PDF is ready.'
            ) : (
              <>
                <Spinner size="small" aria-hidden className="ds-u-margin-right--1" />
                Preparing the PDF… The JSON can be downloaded now.
              </>
            )}
          </p>
          {downloadFailed && <Alert variation="error">{DASHBOARD_ERROR}</Alert>}
        </>
      )}
    </Dialog>
  );
}
