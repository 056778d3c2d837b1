import { describe, expect, it } from 'vitest';
import { FILE_NOT_PDF, FILE_TOO_LARGE, MAX_UPLOAD_BYTES, checkUpload, uploadRules } from './file-check';

// enrollment_reason_file_name in forms/why_applying.form.yaml.
const field = {
  type: 'string',
  readOnly: true,
  'x-upload': { url: '/api/whyapplying/fileupload', accept: 'application/pdf', max_bytes: 3145728 },
  'x-messages': { max_bytes: 'Too big for us.', accept: 'PDF please.' },
};

describe('checkUpload', () => {
  it('takes PDFs up to 3 MB (3145728 bytes) by default', () => {
    expect(MAX_UPLOAD_BYTES).toBe(3145728);
    expect(checkUpload({ name: 'proof.pdf', size: 3145728, type: 'application/pdf' })).toBeNull();
    expect(checkUpload({ name: 'PROOF.PDF', size: 10, type: '' })).toBeNull();
  });

  it('refuses a larger file with the spec message, and anything not a PDF', () => {
    expect(checkUpload({ name: 'proof.pdf', size: 3145729, type: 'application/pdf' })).toBe(FILE_TOO_LARGE);
    expect(FILE_TOO_LARGE.id).toContain('larger than the maximum 3 MB allowed');
    expect(checkUpload({ name: 'proof.png', size: 10, type: 'image/png' })).toBe(FILE_NOT_PDF);
    expect(checkUpload({ name: 'proof.pdf.exe', size: 10, type: '' })).toBe(FILE_NOT_PDF);
  });

  it("follows the field's x-upload and x-messages", () => {
    const rules = uploadRules(field);
    expect(rules).toMatchObject({ url: '/api/whyapplying/fileupload', accept: 'application/pdf', maxBytes: 3145728 });
    expect(checkUpload({ name: 'a.pdf', size: 3145729, type: 'application/pdf' }, rules)).toBe('Too big for us.');
    expect(checkUpload({ name: 'a.doc', size: 1, type: 'application/msword' }, rules)).toBe('PDF please.');
    expect(uploadRules({}).url).toBeNull();
    expect(checkUpload({ name: 'a.jpg', size: 1, type: 'image/jpeg' }, { ...rules, accept: 'image/*' })).toBeNull();
  });
});
