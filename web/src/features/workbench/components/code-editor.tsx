// The draft's code editor (CodeMirror 6), loaded on demand by the draft tab (React.lazy): the
// workbench's own chunk and the consumer pages never carry it.
import { useCallback, useId, useLayoutEffect, useRef } from 'react';
import { Annotation, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  type ViewUpdate,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  StreamLanguage,
  syntaxHighlighting,
  type StreamParser,
} from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { yaml } from '@codemirror/lang-yaml';
import { jinja2 } from '@codemirror/legacy-modes/mode/jinja2';
import { languageOf, problemRanges, type FileProblem } from '../utils/editor';
import { editorLabel, type FileEditorProps } from './plain-editor';

const RHAI_KEYWORDS = new Set([
  'fn', 'let', 'const', 'if', 'else', 'switch', 'while', 'loop', 'do', 'until', 'for', 'in', 'return', 'throw',
  'try', 'catch', 'break', 'continue', 'import', 'export', 'as', 'private', 'global', 'this',
]);

/**
 * Rhai, the rules' script language, as a stream of tokens: comments, strings, numbers, keywords,
 * `module::` paths, function definitions and object maps' `#{`.
 */
export const rhaiParser: StreamParser<{ comment: boolean; afterFn: boolean }> = {
  name: 'rhai',
  startState: () => ({ comment: false, afterFn: false }),
  token(stream, state) {
    if (state.comment) {
      if (stream.skipTo('*/')) {
        stream.pos += 2;
        state.comment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.comment = true;
      return 'comment';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^`[^`]*`?/) || stream.match(/^'(?:[^'\\]|\\.)'/)) return 'string';
    if (stream.match(/^\d[\d_]*(?:\.\d[\d_]*)?(?:e[+-]?\d+)?/i)) return 'number';
    const word = stream.match(/^[A-Za-z_]\w*/) as RegExpMatchArray | null;
    if (word) {
      const w = word[0];
      if (state.afterFn) {
        state.afterFn = false;
        return 'def';
      }
      if (w === 'fn') state.afterFn = true;
      if (RHAI_KEYWORDS.has(w)) return 'keyword';
      if (w === 'true' || w === 'false') return 'atom';
      if (stream.match('::', false)) return 'namespace';
      return 'variableName';
    }
    if (stream.match('#{')) return 'bracket';
    if (stream.match(/^(?:==|!=|<=|>=|&&|\|\||\?\?|\?\.|::|=>|[-+*/%=<>!&|^?])/)) return 'operator';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
};

/** The highlighting and indentation of a file, by its name. */
function languageFor(path: string): Extension {
  switch (languageOf(path)) {
    case 'yaml':
      return [yaml(), indentUnit.of('  '), EditorState.tabSize.of(2)];
    case 'rhai':
      return [StreamLanguage.define(rhaiParser), indentUnit.of('    ')];
    case 'template':
      return StreamLanguage.define(jinja2);
    default:
      return [];
  }
}

/** A change that comes from outside (a discarded draft, an uploaded folder): not sent back as an edit. */
const fromOutside = Annotation.define<boolean>();

/** The diagnostics CodeMirror shows for the server's problems in this file. */
export function diagnosticsFor(text: string, problems: FileProblem[]): Diagnostic[] {
  return problemRanges(text, problems).map((r) => ({ from: r.from, to: r.to, severity: 'error', message: r.message, source: 'server' }));
}

/** The cursor to the start of `line` (within the file), scrolled into view, with the focus. */
function goTo(view: EditorView | null, line: number) {
  if (!view) return;
  const at = view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines)).from;
  view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  view.focus();
}

/** The keyboard help under the label (read with the editor too). */
export const KEYBOARD_HELP =
  'Tab indents. To leave the editor with the keyboard, press Escape, then Tab (or Ctrl+M, Shift+Alt+M on a Mac: Tab then moves on until pressed again). Ctrl+F (⌘F on a Mac) searches; F8 goes to the next problem.';

/**
 * A set file in CodeMirror: line numbers, search, bracket matching, YAML / Rhai / template
 * highlighting and the server's problems on their lines (underlined, marked in the gutter, listed
 * below with a button to each). Each file keeps its own undo history while the tab lives.
 */
export default function CodeEditor({ path, value, onChange, problems, reveal }: FileEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  /** Each file's editor state (its undo history and cursor) while another file is open. */
  const states = useRef(new Map<string, EditorState>());
  const shownPath = useRef(path);
  /** The text last sent up: the same text coming back down is not put in again. */
  const sent = useRef(value);
  const latest = useRef(onChange);
  const helpId = useId();

  useLayoutEffect(() => {
    latest.current = onChange;
  }, [onChange]);

  const stateFor = useCallback(
    (file: string, text: string) =>
      EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          search({ top: true }),
          lintGutter(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
          languageFor(file),
          // Tab indents; Escape then Tab (or Ctrl-M) moves the focus on (CodeMirror's tab focus mode).
          keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap, indentWithTab]),
          // A tab stop of its own said out loud (tabindex 0), so the scrolling box around the text
          // counts as reachable by keyboard: it is, through the text it scrolls.
          EditorView.contentAttributes.of({ 'aria-label': editorLabel(file), 'aria-describedby': helpId, tabindex: '0' }),
          EditorView.updateListener.of((u: ViewUpdate) => {
            if (!u.docChanged || u.transactions.some((t) => t.annotation(fromOutside))) return;
            const text = u.state.doc.toString();
            sent.current = text;
            latest.current(text);
          }),
        ],
      }),
    [helpId],
  );

  useLayoutEffect(() => {
    if (!host.current) return;
    const v = new EditorView({ parent: host.current, state: stateFor(shownPath.current, sent.current) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [stateFor]);

  // Another file: keep this one's state, take up the other's (or a new one).
  useLayoutEffect(() => {
    const v = view.current;
    if (!v || shownPath.current === path) return;
    states.current.set(shownPath.current, v.state);
    const kept = states.current.get(path);
    shownPath.current = path;
    sent.current = value;
    v.setState(kept && kept.doc.toString() === value ? kept : stateFor(path, value));
  }, [path, value, stateFor]);

  // The text changed outside the editor.
  useLayoutEffect(() => {
    const v = view.current;
    if (!v || value === sent.current) return;
    sent.current = value;
    if (v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: fromOutside.of(true) });
  }, [value]);

  // The server's problems on their lines (CodeMirror moves them with later edits).
  useLayoutEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch(setDiagnostics(v.state, diagnosticsFor(v.state.doc.toString(), problems)));
  }, [problems, path]);

  // A problem chosen outside the editor (the refusal's list): its line, with the focus.
  useLayoutEffect(() => {
    if (reveal) goTo(view.current, reveal.line);
  }, [reveal]);

  return (
    <div className="ef-workbench__editor">
      <div className="ds-c-label" onClick={() => view.current?.focus()}>
        {editorLabel(path)}
      </div>
      <p id={helpId} className="ds-c-hint ef-workbench__editor-help">
        {KEYBOARD_HELP}
      </p>
      <div ref={host} className="ef-workbench__editor-host" data-path={path} />
      {problems.length > 0 && (
        <div className="ef-workbench__editor-problems">
          <p className="ef-workbench__bad">
            {problems.length === 1 ? 'A problem' : `${problems.length} problems`} in this file (underlined, marked beside the line):
          </p>
          <ul>
            {problems.map((p, i) => (
              <li key={`${p.line}:${p.column ?? 0}:${i}`}>
                <button type="button" className="ds-c-button ds-c-button--small ds-c-button--ghost" onClick={() => goTo(view.current, p.line)}>
                  Go to line {p.line}
                  {p.column ? `, column ${p.column}` : ''}
                </button>{' '}
                {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
