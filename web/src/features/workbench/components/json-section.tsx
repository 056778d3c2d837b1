import { formatJson } from '../utils/format-json';

interface JsonSectionProps {
  title: string;
  value: unknown;
  open?: boolean;
}

/** A collapsible section showing a value as formatted JSON. */
export function JsonSection({ title, value, open = false }: JsonSectionProps) {
  return (
    <details className="ef-workbench__section" open={open}>
      <summary className="ef-workbench__summary">{title}</summary>
      <pre className="ef-workbench__json" tabIndex={0} role="region" aria-label={`${title} (JSON)`}>
        {formatJson(value)}
      </pre>
    </details>
  );
}
