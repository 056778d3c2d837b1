import { act, cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { StringStream, forceParsing } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { forceLinting, diagnosticCount } from '@codemirror/lint';
import type { FileProblem } from '../utils/editor';
import CodeEditor, { KEYBOARD_HELP, rhaiParser } from './code-editor';
import { DraftTab } from './draft-tab';
import { servingStatus } from '../testing/status';

// CodeMirror measures the text with ranges, which jsdom does not lay out.
beforeAll(() => {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getClientRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => rect as DOMRect;
});
afterEach(cleanup);

const YAML = 'plans:\n  - id: 521\n    name: "Bronze"\n    rates: { 1: 224.70 }\n';
const RHAI = 'fn household(app) {\n    let = ;\n}\n';

/** The editor as the draft tab holds it: the text in the parent's state. */
function Harness({ problems = [], initial = { 'rules/a.yaml': YAML, 'rules/scripts/b.rhai': RHAI } }: { problems?: FileProblem[]; initial?: Record<string, string> }) {
  const [texts, setTexts] = useState(initial);
  const [path, setPath] = useState(Object.keys(initial)[0]!);
  return (
    <>
      <select aria-label="File" value={path} onChange={(e) => setPath(e.target.value)}>
        {Object.keys(texts).map((p) => (
          <option key={p}>{p}</option>
        ))}
      </select>
      <button type="button" onClick={() => setTexts(initial)}>
        Discard
      </button>
      <output data-testid="text">{texts[path]}</output>
      <CodeEditor path={path} value={texts[path]!} onChange={(t) => setTexts((x) => ({ ...x, [path]: t }))} problems={problems} />
    </>
  );
}

const content = (path: string) => screen.getByRole('textbox', { name: `Contents of ${path}` });
const viewOf = (path: string) => EditorView.findFromDOM(content(path))!;

describe('the code editor', () => {
  it('is a labelled text box with line numbers, YAML highlighting and the keyboard help', () => {
    const { container } = render(<Harness />);
    const box = content('rules/a.yaml');
    expect(box.getAttribute('aria-multiline')).toBe('true');
    expect(box.getAttribute('contenteditable')).toBe('true');
    // Reachable by keyboard, so the box that scrolls it is too.
    expect(box.getAttribute('tabindex')).toBe('0');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(KEYBOARD_HELP);
    expect(container.querySelector('.cm-lineNumbers')).toBeTruthy();
    expect(viewOf('rules/a.yaml').state.doc.toString()).toBe(YAML);
    // YAML is parsed: the key and the string get tokens of their own. The parser works in slices of
    // time, so on a busy machine it is asked to finish (with a generous bound) before the look.
    const view = viewOf('rules/a.yaml');
    act(() => {
      forceParsing(view, view.state.doc.length, 10_000);
    });
    expect(box.querySelectorAll('.cm-line span').length).toBeGreaterThan(2);
  });

  it('sends each edit up, and takes a text changed outside (a discarded draft)', () => {
    render(<Harness />);
    const view = viewOf('rules/a.yaml');
    act(() => view.dispatch({ changes: { from: 0, insert: '# edited\n' } }));
    expect(screen.getByTestId('text').textContent).toBe(`# edited\n${YAML}`);
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(view.state.doc.toString()).toBe(YAML);
  });

  it("switches files keeping each one's own undo history, and names the file it shows", () => {
    render(<Harness />);
    act(() => viewOf('rules/a.yaml').dispatch({ changes: { from: 0, insert: 'x' } }));
    fireEvent.change(screen.getByLabelText('File'), { target: { value: 'rules/scripts/b.rhai' } });
    const rhai = viewOf('rules/scripts/b.rhai');
    expect(rhai.state.doc.toString()).toBe(RHAI);
    expect(screen.queryByRole('textbox', { name: 'Contents of rules/a.yaml' })).toBeNull();
    fireEvent.change(screen.getByLabelText('File'), { target: { value: 'rules/a.yaml' } });
    const yaml = viewOf('rules/a.yaml');
    expect(yaml.state.doc.toString()).toBe(`x${YAML}`);
    fireEvent.keyDown(content('rules/a.yaml'), { key: 'z', code: 'KeyZ', keyCode: 90, ctrlKey: true });
    expect(yaml.state.doc.toString()).toBe(YAML);
    expect(screen.getByTestId('text').textContent).toBe(YAML);
  });

  it("shows the server's problems on their lines as lint diagnostics, and goes to one", async () => {
    render(<Harness problems={[{ line: 2, column: 5, message: 'expecting a name' }]} initial={{ 'rules/scripts/b.rhai': RHAI }} />);
    const view = viewOf('rules/scripts/b.rhai');
    expect(diagnosticCount(view.state)).toBe(1);
    forceLinting(view);
    const marked = content('rules/scripts/b.rhai').querySelector('.cm-lintRange-error');
    expect(marked?.textContent).toBe('let');
    expect(document.querySelector('.cm-lint-marker-error')).toBeTruthy();
    expect(screen.getByText('A problem in this file (underlined, marked beside the line):')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go to line 2, column 5' }));
    expect(view.state.selection.main.head).toBe(view.state.doc.line(2).from);
    expect(document.activeElement).toBe(content('rules/scripts/b.rhai'));
  });

  it('indents with Tab, and lets a keyboard user leave: Escape, then Tab is not taken', () => {
    render(<Harness />);
    const box = content('rules/a.yaml');
    const tab = () => fireEvent.keyDown(box, { key: 'Tab', code: 'Tab', keyCode: 9 });
    // fireEvent answers false when the event's default (moving the focus) was prevented.
    expect(tab()).toBe(false);
    expect(viewOf('rules/a.yaml').state.doc.toString().startsWith('  ')).toBe(true);
    fireEvent.keyDown(box, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(tab()).toBe(true);
  });

  it('searches with Ctrl-F', () => {
    const { container } = render(<Harness />);
    fireEvent.keyDown(content('rules/a.yaml'), { key: 'f', code: 'KeyF', keyCode: 70, ctrlKey: true });
    expect(container.querySelector('.cm-search')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Find' })).toBeTruthy();
  });
});

describe('the draft tab', () => {
  const status = servingStatus;

  it('shows the file as plain text at once and loads the code editor on demand, edits kept', async () => {
    render(<DraftTab status={status} files={[{ path: 'rules/a.yaml', text: YAML }]} onOpenProposal={() => {}} />);
    const plain = screen.getByLabelText('Contents of rules/a.yaml');
    expect(plain.tagName).toBe('TEXTAREA');
    fireEvent.change(plain, { target: { value: 'a: 2' } });
    await waitFor(() => expect(content('rules/a.yaml').getAttribute('contenteditable')).toBe('true'), { timeout: 10_000 });
    expect(viewOf('rules/a.yaml').state.doc.toString()).toBe('a: 2');
    act(() => viewOf('rules/a.yaml').dispatch({ changes: { from: 3, to: 4, insert: '3' } }));
    expect(screen.getByText('1 file(s) differ from the serving set:')).toBeTruthy();
    expect(screen.getByRole('option', { name: 'rules/a.yaml (changed)' })).toBeTruthy();
  });
});

describe('Rhai highlighting', () => {
  const tokens = (line: string) => {
    const state = rhaiParser.startState!(4);
    const stream = new StringStream(line, 4, 4);
    const out: [string, string | null][] = [];
    while (!stream.eol()) {
      const style = rhaiParser.token(stream, state);
      out.push([stream.current(), style]);
      stream.start = stream.pos;
    }
    return out.filter(([t]) => t.trim());
  };

  it('tells keywords, function names, module paths, strings, numbers and comments', () => {
    expect(tokens('fn next_step(app) { let a = census::age(app, 21.5); "medical" } // why')).toEqual([
      ['fn', 'keyword'],
      ['next_step', 'def'],
      ['(', null],
      ['app', 'variableName'],
      [')', null],
      ['{', null],
      ['let', 'keyword'],
      ['a', 'variableName'],
      ['=', 'operator'],
      ['census', 'namespace'],
      ['::', 'operator'],
      ['age', 'variableName'],
      ['(', null],
      ['app', 'variableName'],
      [',', null],
      ['21.5', 'number'],
      [')', null],
      [';', null],
      ['"medical"', 'string'],
      ['}', null],
      ['// why', 'comment'],
    ]);
    expect(tokens('#{ modal: true }')[0]).toEqual(['#{', 'bracket']);
  });
});

