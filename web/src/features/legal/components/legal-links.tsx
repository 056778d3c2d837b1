import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import type { LegalDocument } from '@/types/api';
import { getLegalDocument, type LegalKind } from '../api/get-legal-document';

// The modal (and the dialog component) load when first opened: the landing page stays small.
const LegalDialog = lazy(async () => ({ default: (await import('./legal-dialog')).LegalDialog }));

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
  const opener = useRef<HTMLButtonElement | null>(null);
  const close = useCallback(() => setOpenKind(null), []);
  // The dialog unmounts on close: once it is gone, focus goes back to the button that opened it.
  useEffect(() => {
    if (openKind === null) opener.current?.focus();
  }, [openKind]);

  const current = openKind ? loaded[openKind] : undefined;
  const heading = current && 'doc' in current ? current.doc.title : openKind ? LABELS[openKind] : '';

  return (
    <>
      <ul className="ef-footer__links">
        {(Object.keys(LABELS) as LegalKind[]).map((kind) => (
          <li key={kind}>
            <Button
              variation="ghost"
              size="small"
              onDark
              onClick={(e: React.MouseEvent<HTMLButtonElement>) => {
                opener.current = e.currentTarget;
                open(kind);
              }}
              aria-haspopup="dialog"
            >
              {LABELS[kind]}
            </Button>
          </li>
        ))}
      </ul>
      {openKind !== null && (
        <Suspense fallback={null}>
          <LegalDialog heading={heading} html={current && 'doc' in current ? current.doc.html : null} error={current && 'error' in current ? current.error : null} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
