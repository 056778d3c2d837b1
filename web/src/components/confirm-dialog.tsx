import type { ReactNode } from 'react';
import { Button, Dialog } from '@cmsgov/design-system';

interface ConfirmDialogProps {
  heading: string;
  children: ReactNode;
  /** The button that does it ("Approve and publish now"). */
  confirm: string;
  /** The button that does nothing. */
  dismiss?: string;
  onConfirm: () => void;
  onDismiss: () => void;
}

/**
 * Asks before what cannot be undone in one click (the workbench's propose, approve, reject,
 * withdraw, cancel and rollback; deleting an agents' message). Escape and the close button do
 * nothing.
 */
export function ConfirmDialog({ heading, children, confirm, dismiss = 'Go back', onConfirm, onDismiss }: ConfirmDialogProps) {
  return (
    <Dialog
      isOpen
      heading={heading}
      onExit={onDismiss}
      actions={
        <>
          <Button variation="solid" className="ds-u-margin-right--1" onClick={onConfirm}>
            {confirm}
          </Button>
          <Button variation="ghost" onClick={onDismiss}>
            {dismiss}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
