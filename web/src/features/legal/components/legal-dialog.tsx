import { Trans, useLingui } from '@lingui/react';
import { Button, Dialog, Spinner } from '@cmsgov/design-system';

interface LegalDialogProps {
  heading: string;
  /** The document's HTML (server-rendered from templates/legal), or null while it loads. */
  html: string | null;
  error: string | null;
  onClose: () => void;
}

/** The Privacy Policy or Terms of Use modal opened from the footer. */
export function LegalDialog({ heading, html, error, onClose }: LegalDialogProps) {
  const { i18n } = useLingui();
  return (
    <Dialog
      isOpen
      onExit={onClose}
      size="wide"
      heading={heading}
      actions={
        <Button variation="solid" onClick={onClose}>
          <Trans id="Close" />
        </Button>
      }
    >
      {html === null && error === null && <Spinner aria-valuetext={i18n._('Loading')} role="status" />}
      {error !== null && <p>{error}</p>}
      {html !== null && <div className="ef-legal" dangerouslySetInnerHTML={{ __html: html }} />}
    </Dialog>
  );
}
