import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { ApiError } from '@/lib/api-client';
import type { Application, StepSaved, StepView } from '@/types/api';
import { getStepView } from '../api/get-step-view';
import { previewStep } from '../api/preview-step';
import { resetApplication } from '../api/reset-application';
import { saveStep } from '../api/save-step';
import { uploadDocument } from '../api/upload-document';
import type { ModalRequest, PendingUpload, StepFormContext } from '../components/form-context';
import { leavePage } from '../utils/leave';
import { resolveModal, type ModalButton, type ModalView } from '../utils/modals';
import { getAt, isRecord, parseFieldPath as parsePath, setAt, type FieldPath } from '../utils/paths';
import { isTruthy, lookup } from '../utils/template';
import type { ServerErrors } from '../utils/error-keys';
import { say, type Said } from '../utils/translate';

/** How long typing pauses before the view is recomputed for a `refresh_on` field. */
export const PREVIEW_DELAY_MS = 350;

export const UPLOAD_FAILED = /*i18n*/ {
  id: 'Your document could not be uploaded. Please try again, or send it using one of the methods below.',
};
export const FAILURE_TEXT = /*i18n*/ { id: 'An error occurred, please try again. If it continues, contact your agent.' };

/** A failed call's text: the server's, or the client's own (a catalog message), else `fallback`. */
function failureOf(e: unknown, fallback: MessageDescriptor): Said {
  return e instanceof ApiError ? (e.clientMessage ?? (e.message || fallback)) : fallback;
}

export interface OpenDialog {
  modal: ModalView;
  /** Answers cleared however it closes. */
  clear: FieldPath[];
  /** Opened by the view itself (`ui:options.openModal`): its id, so that closing it keeps it closed. */
  auto?: string;
}

/**
 * `ui:clearOnChange: { field: [other, …] }`: a changed answer clears the answers that hang on it
 * (spec part 2, 4: "Changing the reason clears the start date option").
 */
function clearOnChange(view: StepView, prev: unknown, next: unknown): unknown {
  const rules = isRecord(view.ui['ui:clearOnChange']) ? view.ui['ui:clearOnChange'] : {};
  let out = next;
  for (const [trigger, targets] of Object.entries(rules)) {
    const path = parsePath(trigger);
    const before = getAt(prev, path);
    if (before === undefined || same(before, getAt(next, path))) continue;
    for (const t of Array.isArray(targets) ? targets : [targets]) {
      if (typeof t === 'string' && getAt(out, parsePath(t)) !== undefined) out = setAt(out, parsePath(t), undefined);
    }
  }
  return out;
}

/**
 * `ui:options.openModal: { when: <extra>, modal: <id> }` (or a list of them): the dialogs a view
 * opens by itself while the extra is given (the thank-you dialog of a purchased application).
 */
function autoModalIds(view: StepView): string[] {
  const opts = isRecord(view.ui['ui:options']) ? view.ui['ui:options'] : {};
  const rules = Array.isArray(opts.openModal) ? opts.openModal : [opts.openModal];
  return rules
    .filter(isRecord)
    .filter((r) => typeof r.when === 'string' && typeof r.modal === 'string' && isTruthy(lookup(view.extras ?? {}, r.when)))
    .map((r) => String(r.modal));
}

/**
 * Where a form that saves nothing gets its views and its verdicts (the rules workbench's preview):
 * Continue asks `submit`, which answers where the step would go (or throws the 422 of refused
 * answers, drawn as a consumer sees them); nothing is saved and nothing is uploaded.
 */
export interface PreviewBackend {
  preview: (step: string, answers: unknown) => Promise<StepView>;
  view: (step: string) => Promise<StepView>;
  submit: (step: string, answers: unknown) => Promise<{ next: StepView['step']; modal: string | null }>;
}

export interface UseStepFormOptions {
  /** A preview that saves nothing (the rules workbench); the application's API otherwise. */
  backend?: PreviewBackend;
  view: StepView;
  applicationId: string | null;
  agentName: string | null;
  /** A save was accepted (the application as it is now): before any navigation or dialog. */
  onSaved: (saved: StepSaved) => void;
  onNavigate: (path: string) => void;
  /** The application changed without a save of this step (a skipped step opened again). */
  onApplicationChange?: (application: Application) => void;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The state of a form step: the view (recomputed through `preview` when a `refresh_on` field
 * changes), the answers, the server's errors, dialogs and what Continue waits for.
 */
export function useStepForm({ view: initialView, applicationId, agentName, onSaved, onNavigate, onApplicationChange, backend }: UseStepFormOptions) {
  const { i18n, _: t } = useLingui();
  const [view, setView] = useState(initialView);
  // The same step given again (in another language, after the switch in the top bar): its texts
  // are the new view's; the answers being typed, and the revision they are given against, stay.
  const [givenView, setGivenView] = useState(initialView);
  if (givenView !== initialView) {
    setGivenView(initialView);
    setView(initialView);
  }
  /** The application's revision the answers are given against: the view's, then each save's and
   * upload's (a preview does not change it: a newer revision seen there is another window's). */
  const revisionRef = useRef(initialView.revision);
  const [formData, setFormData] = useState<unknown>(initialView.data ?? {});
  const [errors, setErrors] = useState<ServerErrors | null>(null);
  /** A save or a dialog failed: the text to show (the server's for a conflict, 409). */
  const [failure, setFailure] = useState<Said | null>(null);
  /** The server's answer to a refused upload (the step itself was saved). */
  const [uploadError, setUploadError] = useState<Said | null>(null);
  /** The rules refused the submission as a whole (spec part 2, 8: the purchase's `submit_error`). */
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [busyKeys, setBusyKeys] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  /** Dialogs the view opened by itself that the user closed. */
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const [appId, setAppId] = useState(applicationId);
  // The latest answers and view, for callbacks that outlive a render (widgets, timers, requests).
  const formDataRef = useRef<unknown>(formData);
  const viewRef = useRef(view);
  const previewSeq = useRef(0);
  const previewTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const uploads = useRef(new Map<string, PendingUpload>());
  const callbacks = useRef({ onSaved, onNavigate, onApplicationChange, backend });
  useEffect(() => {
    viewRef.current = view;
    callbacks.current = { onSaved, onNavigate, onApplicationChange, backend };
  });
  useEffect(
    () => () => {
      if (previewTimer.current) clearTimeout(previewTimer.current);
    },
    [],
  );

  const runPreview = useCallback(() => {
    previewTimer.current = null;
    const seq = ++previewSeq.current;
    (callbacks.current.backend?.preview ?? previewStep)(viewRef.current.step.id, formDataRef.current)
      .then((fresh) => {
        if (seq === previewSeq.current) setView(fresh);
      })
      .catch(() => {
        // The choices shown stay as they were; the save will tell.
      })
      .finally(() => {
        if (seq === previewSeq.current) setPreviewing(false);
      });
  }, []);

  const change = useCallback(
    (changed: unknown, refresh = true) => {
      const prev = formDataRef.current;
      const next = clearOnChange(viewRef.current, prev, changed);
      formDataRef.current = next;
      setFormData(next);
      const refreshed = viewRef.current.refresh_on.some((f) => !same(getAt(prev, parsePath(f)), getAt(next, parsePath(f))));
      if (refresh && refreshed) {
        if (previewTimer.current) clearTimeout(previewTimer.current);
        setPreviewing(true);
        previewTimer.current = setTimeout(runPreview, PREVIEW_DELAY_MS);
      }
    },
    [runPreview],
  );

  const setField = useCallback((path: FieldPath, value: unknown) => change(setAt(formDataRef.current, path, value)), [change]);

  const setBusy = useCallback((key: string, busy: boolean) => {
    setBusyKeys((prev) => {
      if (prev.has(key) === busy) return prev;
      const next = new Set(prev);
      if (busy) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);

  const setUpload = useCallback((key: string, upload: PendingUpload | null) => {
    if (upload) uploads.current.set(key, upload);
    else uploads.current.delete(key);
  }, []);

  /** Sends the files chosen for the step; the first refusal's message, or null when all went. */
  const sendUploads = useCallback(async (): Promise<Said | null> => {
    for (const [key, upload] of [...uploads.current]) {
      try {
        const doc = await uploadDocument(upload.url, upload.file);
        revisionRef.current = doc.revision;
        uploads.current.delete(key);
        change(setAt(formDataRef.current, upload.path, doc.file_name), false);
      } catch (e) {
        return failureOf(e, UPLOAD_FAILED);
      }
    }
    return null;
  }, [change]);

  const resolveDialog = useCallback(
    (v: StepView, request: ModalRequest, data: unknown): OpenDialog | null => {
      const definition = isRecord(v.modals) ? v.modals[request.id] : undefined;
      const answers = isRecord(data) ? data : {};
      const modal = resolveModal(definition, v.extras ?? {}, { ...answers, ...request.values }, t);
      if (!modal) {
        console.warn(`step ${v.step.id}: no dialog \`${request.id}\``);
        return null;
      }
      return { modal, clear: [...(request.clear ?? []), ...modal.clear.map(parsePath)] };
    },
    [t],
  );

  const openModal = useCallback(
    (request: ModalRequest) => {
      const open = resolveDialog(viewRef.current, request, formDataRef.current);
      if (open) setDialog(open);
      else setFailure(FAILURE_TEXT);
    },
    [resolveDialog],
  );

  // The dialog the view opens by itself, unless one is open already or it was closed. A refused
  // purchase (`submit_error`) blocks it: "submit_error text is shown in a red alert at the top and
  // blocks the success modal" (spec part 2, 8), even when the refusal is that it was bought already.
  const autoId = submitError ? undefined : autoModalIds(view).find((id) => !dismissed.has(id));
  const autoDialog = useMemo(() => {
    if (!autoId) return null;
    const open = resolveDialog(view, { id: autoId }, formData);
    return open ? { ...open, auto: autoId } : null;
  }, [autoId, view, formData, resolveDialog]);
  const shownDialog = dialog ?? autoDialog;

  /** A fresh view of the step (after a save that stays on it, or a conflict). */
  const reload = useCallback(async () => {
    const fresh = await (callbacks.current.backend?.view ?? getStepView)(viewRef.current.step.id);
    viewRef.current = fresh;
    revisionRef.current = fresh.revision;
    setView(fresh);
    formDataRef.current = fresh.data ?? {};
    setFormData(formDataRef.current);
  }, []);

  const savingRef = useRef(false);
  const save = useCallback(
    async (set?: Record<string, unknown>) => {
      // One save at a time (a double click sends the answers once).
      if (savingRef.current) return;
      savingRef.current = true;
      if (set && Object.keys(set).length > 0) {
        change({ ...(isRecord(formDataRef.current) ? formDataRef.current : {}), ...set }, false);
      }
      const step = viewRef.current.step.id;
      setSaving(true);
      setFailure(null);
      setUploadError(null);
      setSubmitError(null);
      try {
        const preview = callbacks.current.backend;
        if (preview) {
          const verdict = await preview.submit(step, formDataRef.current);
          setErrors(null);
          if (verdict.modal) openModal({ id: verdict.modal });
          else callbacks.current.onNavigate(verdict.next.route);
          return;
        }
        const saved = await saveStep(step, formDataRef.current, revisionRef.current);
        revisionRef.current = saved.revision;
        setErrors(null);
        // "Success (no errors and no submit_error) opens the Thank you modal" (spec part 2, 4).
        // The server refuses with 422; a 200 that carries one anyway is a refusal all the same.
        const refusal: unknown = (saved as { submit_error?: unknown }).submit_error;
        if (typeof refusal === 'string' && refusal !== '') {
          setSubmitError(refusal);
          return;
        }
        setAppId(saved.application.applicationId);
        callbacks.current.onSaved(saved);
        if (saved.modal) {
          openModal({ id: saved.modal });
          return;
        }
        // Files go once the step is saved (an application exists then); a refusal keeps the page.
        const refused = await sendUploads();
        if (refused) setUploadError(refused);
        // Staying on the step (the purchase): its view shows what the save changed.
        else if (saved.next.id === step) await reload();
        else callbacks.current.onNavigate(saved.next.route);
      } catch (e) {
        if (e instanceof ApiError && e.submitError) {
          // The rules refused the submission itself (422), or it was submitted already (409): a red
          // alert at the top and no Thank-you dialog.
          setSubmitError(e.submitError);
          setErrors(e.fieldErrors);
          // Bought already: the page shows the application as it is (closed, with Return Home).
          if (e.status === 409) await reload().catch(() => {});
        } else if (e instanceof ApiError && e.fieldErrors) {
          setErrors(e.fieldErrors);
        } else if (e instanceof ApiError && e.status === 409) {
          // The application changed elsewhere (purchased already): say so and show it as it is.
          setErrors(null);
          setFailure(failureOf(e, FAILURE_TEXT));
          await reload().catch(() => {});
        } else if (!(e instanceof ApiError && (e.status === 403 || e.status === 419))) {
          // 403 and 419 already send the browser to the site root.
          setErrors(null);
          setFailure(FAILURE_TEXT);
        }
      } finally {
        savingRef.current = false;
        setSaving(false);
      }
    },
    [change, openModal, sendUploads, reload],
  );

  const closeDialog = useCallback(
    (extraClear: FieldPath[] = []) => {
      const open = shownDialog;
      setDialog(null);
      if (!open) return;
      const auto = open.auto;
      if (auto) setDismissed((prev) => new Set(prev).add(auto));
      let data = formDataRef.current;
      for (const path of [...open.clear, ...extraClear]) data = setAt(data, path, undefined);
      if (data !== formDataRef.current) change(data);
    },
    [shownDialog, change],
  );

  const goHome = useCallback((href: string) => {
    // Whatever the server answers, the page loads afresh (a refused reset leaves the guard to decide).
    void resetApplication()
      .catch(() => {})
      .finally(() => leavePage(href));
  }, []);

  const navigate = useCallback((path: string) => callbacks.current.onNavigate(path), []);
  const applicationChanged = useCallback((application: Application) => callbacks.current.onApplicationChange?.(application), []);

  const pressDialogButton = useCallback(
    (button: ModalButton) => {
      if (button.action === 'link') {
        if (button.href) window.open(button.href, '_blank', 'noopener,noreferrer');
        return;
      }
      if (button.action === 'home') {
        goHome(button.href ?? '/');
        return;
      }
      closeDialog(button.clear.map(parsePath));
      if (button.action === 'submit') void save(button.set);
    },
    [closeDialog, save, goHome],
  );

  const markRequired = isRecord(view.ui['ui:options']) && view.ui['ui:options'].requiredLegend === true;
  const formContext: StepFormContext = useMemo(
    () => ({
      extras: view.extras ?? {},
      agentName,
      applicationId: appId,
      markRequired,
      language: i18n.locale,
      getFormData: () => formDataRef.current,
      setAt: setField,
      openModal,
      setBusy,
      setUpload,
      navigate,
      goHome,
      applicationChanged,
    }),
    [view.extras, agentName, appId, markRequired, i18n.locale, setField, openModal, setBusy, setUpload, navigate, goHome, applicationChanged],
  );

  return {
    view,
    formData,
    errors,
    failure: failure === null ? null : say(i18n, failure),
    uploadError: uploadError === null ? null : say(i18n, uploadError),
    submitError,
    saving,
    busy: saving || previewing || busyKeys.size > 0,
    dialog: shownDialog,
    formContext,
    change,
    save,
    closeDialog,
    pressDialogButton,
  };
}
