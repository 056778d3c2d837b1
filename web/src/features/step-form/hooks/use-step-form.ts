import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import type { StepSaved, StepView } from '@/types/api';
import { previewStep } from '../api/preview-step';
import { saveStep } from '../api/save-step';
import { uploadDocument } from '../api/upload-document';
import type { ModalRequest, PendingUpload, StepFormContext } from '../components/form-context';
import { resolveModal, type ModalButton, type ModalView } from '../utils/modals';
import { getAt, isRecord, setAt, type FieldPath } from '../utils/paths';
import type { ServerErrors } from '../utils/error-keys';

/** How long typing pauses before the view is recomputed for a `refresh_on` field. */
export const PREVIEW_DELAY_MS = 350;

export const UPLOAD_FAILED = 'Your document could not be uploaded. Please try again, or send it using one of the methods below.';

export interface OpenDialog {
  modal: ModalView;
  /** Answers cleared however it closes. */
  clear: FieldPath[];
}

export interface UseStepFormOptions {
  view: StepView;
  applicationId: string | null;
  agentName: string | null;
  /** A save was accepted (the application as it is now): before any navigation or dialog. */
  onSaved: (saved: StepSaved) => void;
  onNavigate: (path: string) => void;
}

/** `a/b` (a form file's field path) -> ['a', 'b']. */
function parsePath(field: string): FieldPath {
  return field
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The state of a form step: the view (recomputed through `preview` when a `refresh_on` field
 * changes), the answers, the server's errors, dialogs and what Continue waits for.
 */
export function useStepForm({ view: initialView, applicationId, agentName, onSaved, onNavigate }: UseStepFormOptions) {
  const [view, setView] = useState(initialView);
  const [formData, setFormData] = useState<unknown>(initialView.data ?? {});
  const [errors, setErrors] = useState<ServerErrors | null>(null);
  const [failed, setFailed] = useState(false);
  /** The server's answer to a refused upload (the step itself was saved). */
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [busyKeys, setBusyKeys] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [appId, setAppId] = useState(applicationId);
  // The latest answers and view, for callbacks that outlive a render (widgets, timers, requests).
  const formDataRef = useRef<unknown>(formData);
  const viewRef = useRef(view);
  const previewSeq = useRef(0);
  const previewTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const uploads = useRef(new Map<string, PendingUpload>());
  const callbacks = useRef({ onSaved, onNavigate });
  useEffect(() => {
    viewRef.current = view;
    callbacks.current = { onSaved, onNavigate };
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
    previewStep(viewRef.current.step.id, formDataRef.current)
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
    (next: unknown, refresh = true) => {
      const prev = formDataRef.current;
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
  const sendUploads = useCallback(async (): Promise<string | null> => {
    for (const [key, upload] of [...uploads.current]) {
      try {
        const doc = await uploadDocument(upload.url, upload.file);
        uploads.current.delete(key);
        change(setAt(formDataRef.current, upload.path, doc.file_name), false);
      } catch (e) {
        return e instanceof ApiError && e.message ? e.message : UPLOAD_FAILED;
      }
    }
    return null;
  }, [change]);

  const openModal = useCallback((request: ModalRequest) => {
    const v = viewRef.current;
    const definition = (isRecord(v.modals) ? v.modals[request.id] : undefined) ?? request.fallback;
    const answers = isRecord(formDataRef.current) ? formDataRef.current : {};
    const modal = resolveModal(definition, v.extras ?? {}, { ...answers, ...request.values });
    if (!modal) {
      console.warn(`step ${v.step.id}: no dialog \`${request.id}\``);
      setFailed(true);
      return;
    }
    setDialog({ modal, clear: [...(request.clear ?? []), ...modal.clear.map(parsePath)] });
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
      setFailed(false);
      setUploadError(null);
      try {
        const saved = await saveStep(step, formDataRef.current);
        setErrors(null);
        setAppId(saved.application.applicationId);
        callbacks.current.onSaved(saved);
        if (saved.modal) {
          openModal({ id: saved.modal });
          return;
        }
        // Files go once the step is saved (an application exists then); a refusal keeps the page.
        const refused = await sendUploads();
        if (refused) setUploadError(refused);
        else callbacks.current.onNavigate(saved.next.route);
      } catch (e) {
        if (e instanceof ApiError && e.fieldErrors) {
          setErrors(e.fieldErrors);
        } else if (!(e instanceof ApiError && (e.status === 403 || e.status === 419))) {
          // 403 and 419 already send the browser to the site root.
          setErrors(null);
          setFailed(true);
        }
      } finally {
        savingRef.current = false;
        setSaving(false);
      }
    },
    [change, openModal, sendUploads],
  );

  const closeDialog = useCallback(
    (extraClear: FieldPath[] = []) => {
      const open = dialog;
      setDialog(null);
      if (!open) return;
      let data = formDataRef.current;
      for (const path of [...open.clear, ...extraClear]) data = setAt(data, path, undefined);
      if (data !== formDataRef.current) change(data);
    },
    [dialog, change],
  );

  const pressDialogButton = useCallback(
    (button: ModalButton) => {
      if (button.action === 'link') {
        if (button.href) window.open(button.href, '_blank', 'noopener,noreferrer');
        return;
      }
      closeDialog(button.clear.map(parsePath));
      if (button.action === 'submit') void save(button.set);
    },
    [closeDialog, save],
  );

  const markRequired = isRecord(view.ui['ui:options']) && view.ui['ui:options'].requiredLegend === true;
  const formContext: StepFormContext = useMemo(
    () => ({
      extras: view.extras ?? {},
      agentName,
      applicationId: appId,
      markRequired,
      getFormData: () => formDataRef.current,
      setAt: setField,
      openModal,
      setBusy,
      setUpload,
    }),
    [view.extras, agentName, appId, markRequired, setField, openModal, setBusy, setUpload],
  );

  return {
    view,
    formData,
    errors,
    failed,
    uploadError,
    saving,
    busy: saving || previewing || busyKeys.size > 0,
    dialog,
    formContext,
    change,
    save,
    closeDialog,
    pressDialogButton,
  };
}
