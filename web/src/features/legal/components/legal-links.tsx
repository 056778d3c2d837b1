import { useCallback, useState } from 'react';
import { Button, Dialog, Spinner } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import type { LegalDocument } from '@/types/api';
import { getLegalDocument, type LegalKind } from '../api/get-legal-document';

const LABELS: Record<LegalKind, string> = { privacy: 'Privacy Policy', terms: 'Terms of Use' };

type Loaded = { kind: LegalKind; doc: LegalDocument } | { kind: LegalKind; error: string };

/** Footer buttons that open the Privacy Policy and Terms of Use modals. */
export function LegalLinks() {
  const [openKind, setOpenKind] = useState<LegalKind | null>(null);
  const [loaded, setLoaded] = useState<Partial<Record<LegalKind, Loaded>>>({});

  const open = (kind: LegalKind) => {
    setOpenKind(kind);
    if (loaded[kind] && !('error' in loaded[kind])) return;
    getLegalDocument(kind).then(
      (doc) => setLoaded((prev) => ({ ...prev, [kind]: { kind, doc } })),
      () => setLoaded((prev) => ({ ...prev, [kind]: { kind, error: GENERIC_ERROR } })),
    );
  };
  const close = useCallback(() => setOpenKind(null), []);

  const current = openKind ? loaded[openKind] : undefined;
  const heading = current && 'doc' in current ? current.doc.title : openKind ? LABELS[openKind] : '';

  return (
    <>
      <ul className="ef-footer__links">
        {(Object.keys(LABELS) as LegalKind[]).map((kind) => (
          <li key={kind}>
            <Button variation="ghost" size="small" onDark onClick={() => open(kind)} aria-haspopup="dialog">
              {LABELS[kind]}
            </Button>
          </li>
        ))}
      </ul>
      <Dialog
        isOpen={openKind !== null}
        onExit={close}
        size="wide"
        heading={heading}
        actions={
          <Button variation="solid" onClick={close}>
            Close
          </Button>
        }
      >
        {!current && <Spinner aria-valuetext="Loading" role="status" />}
        {current && 'error' in current && <p>{current.error}</p>}
        {current && 'doc' in current && (
          <div className="ef-legal" dangerouslySetInnerHTML={{ __html: current.doc.html }} />
        )}
      </Dialog>
    </>
  );
}
