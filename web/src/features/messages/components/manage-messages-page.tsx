import { Alert, Button, Choice, InlineError, Spinner, TextField } from '@cmsgov/design-system';
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ApiError } from '@/lib/api-client';
import { deleteMessage } from '../api/delete-message';
import { getAgentList } from '../api/get-agent-list';
import { getMessageList } from '../api/get-message-list';
import { saveMessage } from '../api/save-message';
import type { AdminMessage, MessageAgent } from '../types';
import { EMPTY_FORM, fromMessage, isFormEmpty, splitErrors, toSaveBody, trimForm, type MessageField, type MessageForm } from '../utils/message-form';
import './messages.css';

export const LOAD_ERROR = 'An error occurred, please try again. If it continues, contact support.';
export const SAVE_ERROR = 'Sorry, something went wrong';
export const SAVED = 'Message has been saved';
/** The saved toast's time on screen (spec part 2, 9). */
export const SAVED_TOAST_MS = 3000;

type FieldErrors = Partial<Record<MessageField, string>>;

/**
 * Manage Agent Messages (spec part 2, admins): the message list (title, 'Created' and date) with New
 * message, and the form: Title, Publish Date, Expiration Date, Message Code, Content, 'Prevent agent
 * from dismissing this message' and the agents it goes to (Select All / Deselect All).
 */
export function ManageMessagesPage() {
  const ids = useId();
  const [messages, setMessages] = useState<AdminMessage[] | null>(null);
  const [agents, setAgents] = useState<MessageAgent[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [form, setForm] = useState<MessageForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState(false);
  const topRef = useRef<HTMLDivElement>(null);

  const loadMessages = useCallback(async () => {
    try {
      setMessages(await getMessageList());
    } catch {
      setLoadError(true);
    }
  }, []);

  useEffect(() => {
    getMessageList().then(setMessages, () => setLoadError(true));
    getAgentList().then(setAgents, () => setLoadError(true));
  }, []);

  useEffect(() => {
    if (!toast) return;
    const t = window.setTimeout(() => setToast(false), SAVED_TOAST_MS);
    return () => window.clearTimeout(t);
  }, [toast]);

  const select = (next: MessageForm) => {
    setForm(next);
    setErrors({});
    setFormError(null);
  };

  const set = <K extends keyof MessageForm>(key: K, value: MessageForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const text = (key: 'title' | 'publish_date' | 'expiration_date' | 'code' | 'content') => ({
    value: form[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.target.value),
  });

  const fail = (error: unknown) => {
    window.scrollTo(0, 0);
    topRef.current?.focus();
    const { fields, other } =
      error instanceof ApiError && error.fieldErrors ? splitErrors(error.fieldErrors) : { fields: {}, other: [] as string[] };
    setErrors(fields);
    const hasFieldErrors = Object.keys(fields).length > 0;
    setFormError(hasFieldErrors ? (other.length ? other.join(' ') : null) : SAVE_ERROR);
  };

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    if (isFormEmpty(form) || busy) return;
    const trimmed = trimForm(form);
    setForm(trimmed);
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      const saved = await saveMessage(toSaveBody(trimmed));
      setToast(true);
      // A new message resets the form; an existing one stays selected.
      select(trimmed.id ? fromMessage(saved) : EMPTY_FORM);
      await loadMessages();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const [confirming, setConfirming] = useState(false);
  const onDelete = async () => {
    setConfirming(false);
    if (!form.id || busy) return;
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      await deleteMessage(form.id);
      select(EMPTY_FORM);
      await loadMessages();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const toggleAgent = (id: string, on: boolean) =>
    setForm((f) => ({ ...f, agents: on ? [...f.agents.filter((a) => a !== id), id] : f.agents.filter((a) => a !== id) }));

  return (
    <div className="ef-manage-messages" ref={topRef} tabIndex={-1}>
      <h1 className="ds-text-heading--2xl">Manage Messages</h1>
      {loadError && (
        <Alert variation="error" className="ds-u-margin-bottom--2">
          {LOAD_ERROR}
        </Alert>
      )}
      {toast && (
        <Alert variation="success" role="status" className="ds-u-margin-bottom--2">
          {SAVED}
        </Alert>
      )}
      {formError && (
        <Alert variation="error" className="ds-u-margin-bottom--2">
          {formError}
        </Alert>
      )}
      <div className="ef-manage-messages__layout">
        <section className="ef-manage-messages__list" aria-labelledby={`${ids}-list`}>
          <h2 id={`${ids}-list`} className="ds-text-heading--lg ds-u-margin-top--0">
            Messages
          </h2>
          <Button variation="solid" size="small" onClick={() => select(EMPTY_FORM)}>
            New message
          </Button>
          {messages === null && !loadError && <Spinner aria-valuetext="Loading messages" role="status" />}
          {messages && (
            <ul className="ef-message-list">
              {messages.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    className={`ef-message-list__item${m.id === form.id ? ' ef-message-list__item--selected' : ''}`}
                    aria-current={m.id === form.id ? 'true' : undefined}
                    onClick={() => select(fromMessage(m))}
                  >
                    <span className="ef-message-list__title">{m.title}</span>
                    <span className="ef-message-list__date">Created {m.created_at_formatted}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <form className="ef-manage-messages__form" onSubmit={(e) => void onSave(e)} noValidate aria-labelledby={`${ids}-form`}>
          <h2 id={`${ids}-form`} className="ds-text-heading--lg ds-u-margin-top--0">
            {form.id ? 'Edit message' : 'New message'}
          </h2>
          <TextField name="title" label="Title" requirementLabel="Required" aria-required="true" errorMessage={errors.title} errorPlacement="bottom" {...text('title')} />
          <TextField
            name="publish_date"
            label="Publish Date"
            type="date"
            requirementLabel="Required"
            aria-required="true"
            errorMessage={errors.publish_date}
            errorPlacement="bottom"
            {...text('publish_date')}
          />
          <TextField
            name="expiration_date"
            label="Expiration Date"
            type="date"
            errorMessage={errors.expiration_date}
            errorPlacement="bottom"
            {...text('expiration_date')}
          />
          <TextField name="code" label="Message Code" errorMessage={errors.code} errorPlacement="bottom" {...text('code')} />
          <TextField
            name="content"
            label="Content"
            hint="HTML is allowed; scripts and event handlers are removed."
            multiline
            rows={10}
            requirementLabel="Required"
            aria-required="true"
            errorMessage={errors.content}
            errorPlacement="bottom"
            {...text('content')}
          />
          <Choice
            type="checkbox"
            name="is_sticky"
            value="1"
            label="Prevent agent from dismissing this message"
            checked={form.is_sticky}
            onChange={(e: ChangeEvent<HTMLInputElement>) => set('is_sticky', e.target.checked)}
            errorMessage={errors.sticky}
          />

          <fieldset className="ds-c-fieldset ef-message-agents">
            <legend className="ds-c-label">Agents</legend>
            <div className="ef-message-agents__actions">
              <Button variation="ghost" size="small" onClick={() => set('agents', (agents ?? []).map((a) => a.id))} disabled={!agents?.length}>
                Select All
              </Button>
              <Button variation="ghost" size="small" onClick={() => set('agents', [])} disabled={!agents?.length}>
                Deselect All
              </Button>
            </div>
            {errors.agents && <InlineError id={`${ids}-agents-error`}>{errors.agents}</InlineError>}
            {agents === null && !loadError && <Spinner aria-valuetext="Loading agents" role="status" />}
            {agents && (
              <table className="ds-c-table ds-c-table--borderless ds-c-table--compact ef-message-agents__table">
                <caption className="ds-u-visibility--screen-reader">Agents to send this message to</caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="ds-u-visibility--screen-reader">Send to</span>
                    </th>
                    <th scope="col">NPN</th>
                    <th scope="col">Name</th>
                    <th scope="col">Email Address</th>
                  </tr>
                </thead>
                <tbody>
                  {agents.map((a) => {
                    const name = `${a.first_name} ${a.last_name}`.trim();
                    return (
                      <tr key={a.id}>
                        <td>
                          <input
                            type="checkbox"
                            className="ef-message-agents__check"
                            aria-label={`Send to ${name} (NPN ${a.npn})`}
                            aria-describedby={errors.agents ? `${ids}-agents-error` : undefined}
                            checked={form.agents.includes(a.id)}
                            onChange={(e) => toggleAgent(a.id, e.target.checked)}
                          />
                        </td>
                        <td>{a.npn}</td>
                        <td>{name}</td>
                        <td>{a.email}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </fieldset>

          <div className="ef-manage-messages__buttons">
            <Button type="submit" variation="solid" disabled={isFormEmpty(form) || busy}>
              Save message
            </Button>
            <Button variation="ghost" onClick={() => setConfirming(true)} disabled={!form.id || busy}>
              Delete message
            </Button>
          </div>
        </form>
      </div>
      {confirming && (
        <ConfirmDialog
          heading="Delete this message?"
          confirm="Delete message"
          dismiss="Keep it"
          onConfirm={() => void onDelete()}
          onDismiss={() => setConfirming(false)}
        >
          <p>
            &ldquo;{form.title}&rdquo; is removed for every agent it was sent to. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
