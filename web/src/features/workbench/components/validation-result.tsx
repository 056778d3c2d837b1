import { Alert } from '@cmsgov/design-system';
import type { Submission } from '@/types/api';
import { JsonSection } from './json-section';

/** The server's verdict on the sample answers: the errors per field key, or where the step goes next. */
export function ValidationResult({ validation }: { validation: Submission | null }) {
  if (!validation) {
    return <p className="ef-workbench__muted">No answers were validated: use Validate to check sample answers.</p>;
  }
  if (validation.outcome === 'invalid') {
    const entries = Object.entries(validation.errors);
    const count = entries.length;
    return (
      <Alert variation="error" heading={`Invalid: ${count} ${count === 1 ? 'field has' : 'fields have'} errors`} headingLevel="3">
        <dl className="ef-workbench__errors">
          {entries.map(([key, messages]) => (
            <div key={key} className="ef-workbench__error">
              <dt>
                <code>{key}</code>
              </dt>
              <dd>
                <ul>
                  {messages.map((message, i) => (
                    <li key={i}>{message}</li>
                  ))}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
      </Alert>
    );
  }
  return (
    <>
      <Alert variation="success" heading="Accepted" headingLevel="3">
        <p className="ds-u-margin-y--0">
          Next: {validation.next.title} (<code>{validation.next.id}</code>, {validation.next.route})
        </p>
        {validation.modal && (
          <p className="ds-u-margin-y--0">
            First shows the dialog <code>{validation.modal}</code>.
          </p>
        )}
      </Alert>
      <JsonSection title="Updates to the application" value={validation.updates} />
      <JsonSection title="Cleaned answers" value={validation.answers} />
    </>
  );
}
