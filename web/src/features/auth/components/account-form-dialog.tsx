import { useId, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Button, Dialog } from '@cmsgov/design-system';
import { FormAlert, SuccessAlert } from './form-alert';

export interface AccountFormDialogProps {
  heading: string;
  onClose: () => void;
  /** The submit button's label ("Change Password", "Send Reset Link"). */
  submitLabel: string;
  /** From `useServerForm`: the call in flight, the errors of no field, where they show. */
  busy: boolean;
  formErrors: string[];
  topRef: RefObject<HTMLDivElement | null>;
  onSubmit: () => void;
  /** The server's answer once it succeeded: shown instead of the form, with only Close left. */
  done: string | null;
  /** What follows the success message (a link to log in). */
  afterDone?: ReactNode;
  /** Shown instead of the form while it cannot be sent (loading, an invalid link): only Close. */
  instead?: ReactNode;
  isOpen?: boolean;
  closeVariation?: 'solid' | 'ghost';
  children: ReactNode;
}

/**
 * The account dialogs' one shape (Forgot, Reset and Change Password, Create Your Account): errors of
 * no field at the top, the form, a submit button and Cancel; after success the server's message and
 * Close.
 */
export function AccountFormDialog({
  heading,
  onClose,
  submitLabel,
  busy,
  formErrors,
  topRef,
  onSubmit,
  done,
  afterDone,
  instead,
  isOpen = true,
  closeVariation = 'ghost',
  children,
}: AccountFormDialogProps) {
  const formId = useId();
  const showForm = done === null && instead === undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog
      isOpen={isOpen}
      onExit={onClose}
      heading={heading}
      actions={
        showForm ? (
          <>
            <Button type="submit" form={formId} variation="solid" disabled={busy}>
              {submitLabel}
            </Button>
            <Button variation="ghost" onClick={onClose}>
              Cancel
            </Button>
          </>
        ) : (
          <Button variation={closeVariation} onClick={onClose}>
            Close
          </Button>
        )
      }
    >
      <div ref={topRef}>
        <FormAlert messages={formErrors} />
      </div>
      {done !== null && (
        <>
          <SuccessAlert>{done}</SuccessAlert>
          {afterDone}
        </>
      )}
      {done === null && instead}
      {showForm && (
        <form id={formId} onSubmit={submit} noValidate className="ef-account-form">
          {children}
        </form>
      )}
    </Dialog>
  );
}
