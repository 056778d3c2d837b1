import { Button, Dialog } from '@cmsgov/design-system';
import type { ModalButton, ModalView } from '../utils/modals';

interface StepDialogProps {
  modal: ModalView;
  busy: boolean;
  onButton: (button: ModalButton) => void;
  /** Escape or the close button. */
  onExit: () => void;
}

/** A step's dialog, drawn from the form file's `modals` (see utils/modals.ts). */
export function StepDialog({ modal, busy, onButton, onExit }: StepDialogProps) {
  // A question's answers (Medicare: No, or Continue with Dental/Vision Only) weigh the same; a
  // dialog with one way on (Cancel and Continue) puts it last, stronger.
  const answers = modal.buttons.filter((b) => b.action === 'submit').length > 1;
  const messages = modal.buttons.map((b) => b.disabledMessage).filter((m): m is string => m !== null);
  return (
    <Dialog
      isOpen
      onExit={onExit}
      heading={modal.title}
      className="ef-step-dialog"
      actions={
        <div className="ef-step-dialog__actions">
          {modal.buttons.map((b, i) => (
            <Button
              key={`${b.label}-${i}`}
              variation={answers ? undefined : i === modal.buttons.length - 1 ? 'solid' : 'ghost'}
              disabled={b.disabled || (busy && b.action === 'submit')}
              onClick={() => onButton(b)}
            >
              {b.label}
            </Button>
          ))}
        </div>
      }
    >
      {modal.paragraphs.map((p) => (
        <p key={p}>{p}</p>
      ))}
      {messages.map((m) => (
        <p key={m} className="ef-step-dialog__notice" role="status">
          {m}
        </p>
      ))}
    </Dialog>
  );
}
