import { TextField } from '@cmsgov/design-system';
import type { FileProblem } from '../utils/editor';

/** What the draft's file editor is given: one file of the set, its text and the server's problems in it. */
export interface FileEditorProps {
  path: string;
  value: string;
  onChange: (text: string) => void;
  /** The problems the server named in this file (the newest refusal's). */
  problems: FileProblem[];
  /** Show this line (and take the focus): a new object each time it is asked. */
  reveal?: { line: number } | null;
}

/** The editor's label, which names the file (screen readers, tests). */
export const editorLabel = (path: string) => `Contents of ${path}`;

/**
 * The file as plain text: shown while the code editor loads, and in its place if it cannot be
 * loaded (the same label, so nothing else changes).
 */
export function PlainEditor({ path, value, onChange }: FileEditorProps) {
  return (
    <TextField
      name="draft-text"
      label={editorLabel(path)}
      multiline
      rows={18}
      fieldClassName="ef-workbench__code ef-workbench__wide"
      value={value}
      spellCheck={false}
      onChange={(e: { target: { value: string } }) => onChange(e.target.value)}
    />
  );
}
