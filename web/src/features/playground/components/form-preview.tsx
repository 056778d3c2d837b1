import { Component, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { Alert, Button } from '@cmsgov/design-system';
import type { StepView } from '@/types/api';
import { schemaValidator } from '@/lib/schema-validator';
import { previewUiSchema, previewWidgets } from '../utils/preview-widgets';

/** A renderer failure stays inside the preview; the JSON sections still show. */
class PreviewBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.warn('playground preview failed', error, info.componentStack);
  }

  render() {
    if (this.state.error) {
      return (
        <Alert variation="warn" heading="The preview cannot draw this form" headingLevel="3">
          {this.state.error.message}
        </Alert>
      );
    }
    return this.props.children;
  }
}

const DEFAULTS_BEHAVIOR = { requiredBooleanDefault: 'skip', constAsDefaults: 'never' } as const;

interface FormPreviewProps {
  view: StepView;
  /** Put what is in the preview into the sample answers. */
  onUseAnswers: (answers: unknown) => void;
}

/**
 * The step's form drawn from its schema by RJSF's default theme, for a look only: widgets of the
 * coming CMS renderer stand in as default ones and nothing is validated here. Remount it (key) for
 * a new view.
 */
export function FormPreview({ view, onUseAnswers }: FormPreviewProps) {
  const [formData, setFormData] = useState<unknown>(view.data ?? undefined);
  const uiSchema = useMemo(() => previewUiSchema(view.ui), [view.ui]);
  const widgets = useMemo(() => previewWidgets(view.ui), [view.ui]);
  if (!view.schema) return null;
  return (
    <div className="ef-playground__preview">
      <PreviewBoundary>
        <Form
          schema={view.schema as RJSFSchema}
          uiSchema={uiSchema}
          formData={formData}
          validator={schemaValidator}
          widgets={widgets}
          idPrefix="preview"
          noHtml5Validate
          showErrorList={false}
          experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOR}
          onChange={(event) => setFormData(event.formData)}
          onSubmit={() => onUseAnswers(formData)}
        />
      </PreviewBoundary>
      <Button variation="ghost" size="small" className="ds-u-margin-top--2" onClick={() => onUseAnswers(formData ?? {})}>
        Use these as sample answers
      </Button>
    </div>
  );
}
