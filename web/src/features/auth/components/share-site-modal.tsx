import { useEffect, useRef, useState, type FocusEvent } from 'react';
import { Button, Dialog, TextField } from '@cmsgov/design-system';
import { facebookShareUrl } from '../utils/site-address';

/** How long "Link copied to clipboard" shows (spec part 1, 9). */
export const COPY_TOOLTIP_MS = 2000;

export interface ShareSiteModalProps {
  isOpen: boolean;
  /** The agent's site (first subdomain). */
  address: string;
  onClose: () => void;
}

/** Copies text: the Clipboard API, else the selected field and the copy command. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/** Share your custom site (spec part 1, 2.5): the address with Copy (a tooltip for 2 s) and a Facebook share link. */
export function ShareSiteModal({ isOpen, address, onClose }: ShareSiteModalProps) {
  const [copied, setCopied] = useState(false);
  const fieldRef = useRef<HTMLInputElement>(null);

  // The 2 seconds count from the copy, not from whenever the renderer runs its effects.
  const hideTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(hideTimer.current), []);

  const copy = () => {
    void copyText(address, fieldRef.current).then((ok) => {
      if (!ok) return;
      setCopied(true);
      window.clearTimeout(hideTimer.current);
      hideTimer.current = window.setTimeout(() => setCopied(false), COPY_TOOLTIP_MS);
    });
  };

  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      heading="Share your custom site"
      actions={
        <Button variation="solid" onClick={onClose}>
          Close
        </Button>
      }
    >
      <p className="ds-u-margin-top--0">Send your customers to your own site, where they can quote and apply with you as their agent.</p>
      <div className="ef-share">
        <TextField
          name="site_address"
          label="Your site address"
          value={address}
          readOnly
          inputRef={fieldRef}
          onFocus={(e: FocusEvent<HTMLInputElement>) => e.target.select()}
          className="ef-share__field"
        />
        <div className="ef-share__copy">
          <Button variation="ghost" onClick={copy}>
            Copy
          </Button>
          <span role="status" className="ef-share__tooltip" data-shown={copied || undefined}>
            {copied ? 'Link copied to clipboard' : ''}
          </span>
        </div>
      </div>
      <p>
        <a href={facebookShareUrl(address)} target="_blank" rel="noopener noreferrer">
          Share on Facebook<span className="ds-u-visibility--screen-reader"> (opens in a new tab)</span>
        </a>
      </p>
    </Dialog>
  );
}
