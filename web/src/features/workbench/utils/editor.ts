// What the draft's code editor needs that is not CodeMirror itself (kept apart so the workbench's
// own chunk can use it without loading the editor): the language of a file, and where in its text
// the server's `file:line:column: message` problems fall.

/** A problem the server named in one file: line and column count from 1 (column 0 or absent: the whole line). */
export interface FileProblem {
  line: number;
  column?: number;
  message: string;
}

/** A problem placed in a text: offsets `from`–`to` (`to` ≥ `from`), with the line it is on. */
export interface ProblemRange {
  from: number;
  to: number;
  line: number;
  message: string;
}

export type EditorLanguage = 'yaml' | 'rhai' | 'template' | 'text';

/** How a set's file is highlighted: YAML, Rhai scripts, the templates (`{{ }}`/`{% %}`), else plain text. */
export function languageOf(path: string): EditorLanguage {
  if (/\.ya?ml$/i.test(path)) return 'yaml';
  if (/\.rhai$/i.test(path)) return 'rhai';
  if (path.startsWith('templates/') && /\.(html|txt|md)$/i.test(path)) return 'template';
  return 'text';
}

/**
 * Where each problem falls in `text`: at its column, over the word (or the one character) there;
 * without a column, over the line from its first non-blank character. A line past the end is the
 * last line, a column past the end of its line the line's end (so a problem is never lost).
 */
export function problemRanges(text: string, problems: FileProblem[]): ProblemRange[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return problems.map((p) => {
    const line = Math.min(Math.max(1, Math.floor(p.line) || 1), starts.length);
    const start = starts[line - 1] ?? 0;
    const end = line < starts.length ? (starts[line] ?? text.length) - 1 : text.length;
    const content = text.slice(start, end);
    if (!p.column || p.column < 1) {
      const indent = content.length - content.trimStart().length;
      return { from: start + Math.min(indent, content.length), to: end, line, message: p.message };
    }
    const at = Math.min(p.column - 1, content.length);
    const word = /^\w+/.exec(content.slice(at))?.[0].length ?? 0;
    const to = start + at + (word || (at < content.length ? 1 : 0));
    return { from: start + at, to, line, message: p.message };
  });
}
