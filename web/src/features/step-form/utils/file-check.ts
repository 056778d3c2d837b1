// Uploads (spec part 2, 5 and 9): a field with `x-upload: { url, accept, max_bytes }` takes a file
// that the browser checks first; `x-messages: { accept, max_bytes }` words the refusals. The
// qualifying-event document is a PDF of 3 MB at most.

import type { MessageDescriptor } from '@lingui/core';
import { isRecord } from './paths';
import type { Said } from './translate';

export const MAX_UPLOAD_BYTES = 3_145_728;

// The app's own wording (catalog messages, shown with `i18n._`); a field's `x-messages` come from
// the server in the page's language.
export const FILE_TOO_LARGE: MessageDescriptor = /*i18n*/ {
  id: 'The file you chose is larger than the maximum 3 MB allowed. If you cannot upload a smaller file, please submission documentation using one of the methods below.',
};

export const FILE_NOT_PDF: MessageDescriptor = /*i18n*/ { id: 'Please choose a PDF file.' };

export interface UploadRules {
  /** Where the file goes (POST, multipart `file`); null when the field names no address. */
  url: string | null;
  /** Accepted types, as for `<input accept>`: MIME types and `.ext` endings. */
  accept: string;
  maxBytes: number;
  tooLarge: Said;
  wrongType: Said;
}

/** The upload rules of a field's schema (PDF, 3 MB and the spec's wording by default). */
export function uploadRules(schema: unknown): UploadRules {
  const s = isRecord(schema) ? schema : {};
  const x = isRecord(s['x-upload']) ? s['x-upload'] : {};
  const messages = isRecord(s['x-messages']) ? s['x-messages'] : {};
  return {
    url: typeof x.url === 'string' ? x.url : null,
    accept: typeof x.accept === 'string' ? x.accept : 'application/pdf',
    maxBytes: typeof x.max_bytes === 'number' ? x.max_bytes : MAX_UPLOAD_BYTES,
    tooLarge: typeof messages.max_bytes === 'string' ? messages.max_bytes : FILE_TOO_LARGE,
    wrongType: typeof messages.accept === 'string' ? messages.accept : FILE_NOT_PDF,
  };
}

interface FileLike {
  name: string;
  size: number;
  type: string;
}

const EXTENSIONS: Readonly<Record<string, string>> = { 'application/pdf': '.pdf' };

function accepted(file: FileLike, accept: string): boolean {
  const name = file.name.toLowerCase();
  return accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
    .some((a) => {
      if (a.startsWith('.')) return name.endsWith(a);
      if (a.endsWith('/*')) return file.type.startsWith(a.slice(0, -1));
      // Some systems give no type: the usual ending for the type stands in.
      return file.type === a || (file.type === '' && EXTENSIONS[a] !== undefined && name.endsWith(EXTENSIONS[a]));
    });
}

/** Why a chosen file cannot be uploaded, or null when it can. */
export function checkUpload(file: FileLike, rules: UploadRules = uploadRules({})): Said | null {
  if (!accepted(file, rules.accept)) return rules.wrongType;
  if (file.size > rules.maxBytes) return rules.tooLarge;
  return null;
}
