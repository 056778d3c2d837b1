import { useId } from 'react';
import { LANGUAGES } from '@/i18n/languages';

/** The language a customer's e-mail is written in (the link then opens in their browser's). */
export function EmailLanguage({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const id = useId();
  return (
    <>
      <label className="ds-c-label" htmlFor={id}>
        Email language
      </label>
      <select id={id} className="ds-c-field" value={value} onChange={(e) => onChange(e.target.value)}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </>
  );
}
