import type { SetFile } from '@/types/api';
import { linesAround } from '../utils/workbench';

/** A problem's file and line with the lines around it (the named line marked). */
export function SourceLines({ files, file, line }: { files: SetFile[]; file: string; line: number }) {
  const lines = linesAround(files, file, line);
  if (lines.length === 0) return null;
  return (
    <pre className="ef-workbench__source" tabIndex={0} role="region" aria-label={`${file} around line ${line}`}>
      {lines.map((l) => (
        <span key={l.number} className={l.at ? 'ef-workbench__source-at' : undefined}>
          <span className="ef-workbench__source-n" aria-hidden="true">
            {l.number}
          </span>
          {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

interface ProblemsProps {
  problems: { file: string; line: number; column?: number; message: string }[];
  files: SetFile[];
  /** Open the problem's file in the editor at its line (a button beside each problem of a file there is). */
  onOpen?: (file: string, line: number) => void;
}

/** Problems of a rule set (`file:line:column: message`), each with its source lines. */
export function Problems({ problems, files, onOpen }: ProblemsProps) {
  return (
    <ul className="ef-workbench__problems">
      {problems.map((p, i) => (
        <li key={`${p.file}:${p.line}:${i}`}>
          <code>
            {p.file}:{p.line}
            {p.column ? `:${p.column}` : ''}
          </code>{' '}
          {p.message}
          {onOpen && files.some((f) => f.path === p.file) && (
            <>
              {' '}
              <button type="button" className="ds-c-button ds-c-button--small ds-c-button--ghost" onClick={() => onOpen(p.file, p.line)}>
                Edit {p.file} at line {p.line}
              </button>
            </>
          )}
          <SourceLines files={files} file={p.file} line={p.line} />
        </li>
      ))}
    </ul>
  );
}

/** A scenario's failure messages (`file:line: step n: …`), at most `limit` of them. */
export function Failures({ failures, limit = Infinity }: { failures: string[]; limit?: number }) {
  if (failures.length === 0) return null;
  return (
    <ul>
      {failures.slice(0, limit).map((f) => (
        <li key={f}>
          <code>{f}</code>
        </li>
      ))}
    </ul>
  );
}
