import { lazy, Suspense, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react';
import { Button } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import type { LegalDocument } from '@/types/api';
import { getLegalDocument, type LegalKind } from '../api/get-legal-document';

// The modal (and the dialog component) load when first opened: the landing page stays small.
const LegalDialog = lazy(async () => ({ default: (await import('./legal-dialog')).LegalDialog }));

const LABELS = {
  privacy: /*i18n*/ { id: 'Privacy Policy' },
  terms: /*i18n*/ { id: 'Terms of Use' },
} satisfies Record<LegalKind, { id: string }>;

/** A document as the server wrote it in the language it was asked in (`lang`), or why it could not be read. */
type Loaded = { kind: LegalKind; lang: string; doc: LegalDocument } | { kind: LegalKind; lang: string; error: typeof GENERIC_ERROR };

/** Footer buttons that open the Privacy Policy and Terms of Use modals. */
export function LegalLinks() {
  const { i18n } = useLingui();
  const [openKind, setOpenKind] = useState<LegalKind | null>(null);
  const [loaded, setLoaded] = useState<Partial<Record<LegalKind, Loaded>>>({});

  // The server writes the documents in the page's language: one read in another language is read again.
  const lang = i18n.locale;
  const open = (kind: LegalKind) => {
    setOpenKind(kind);
    const had = loaded[kind];
    if (had && had.lang === lang && !('error' in had)) return;
    getLegalDocument(kind).then(
      (doc) => setLoaded((prev) => ({ ...prev, [kind]: { kind, lang, doc } })),
      () => setLoaded((prev) => ({ ...prev, [kind]: { kind, lang, error: GENERIC_ERROR } })),
    );
  };
  const opener = useRef<HTMLButtonElement | null>(null);
  const close = useCallback(() => setOpenKind(null), []);
  // The dialog unmounts on close: once it is gone, focus goes back to the button that opened it.
  useLayoutEffect(() => {
    if (openKind === null) opener.current?.focus();
  }, [openKind]);

  const read = openKind ? loaded[openKind] : undefined;
  const current = read?.lang === lang ? read : undefined;
  const heading = current && 'doc' in current ? current.doc.title : openKind ? i18n._(LABELS[openKind]) : '';

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
              {i18n._(LABELS[kind])}
            </Button>
          </li>
        ))}
      </ul>
      {openKind !== null && (
        <Suspense fallback={null}>
          <LegalDialog heading={heading} html={current && 'doc' in current ? current.doc.html : null} error={current && 'error' in current ? i18n._(current.error) : null} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
