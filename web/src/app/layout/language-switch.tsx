import { useState } from 'react';
import { useLingui } from '@lingui/react';
import { activate, otherLanguages } from '@/i18n';

/**
 * The top bar's language switch: a button per other language, named in that language
 * (`lang` set, so a screen reader says it in its own voice). Switching keeps the page: the app
 * redraws in place, and `onSwitched` asks the server's texts again (the step's form, the flow).
 */
export function LanguageSwitch({ onSwitched }: { onSwitched: () => void }) {
  const { i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  const choose = (code: string) => {
    setBusy(true);
    void activate(code)
      .then(onSwitched)
      .finally(() => setBusy(false));
  };
  return (
    <>
      {otherLanguages(i18n.locale).map((l) => (
        <li key={l.code}>
          <button type="button" className="ef-topbar__link ef-topbar__language" lang={l.code} disabled={busy} onClick={() => choose(l.code)}>
            {l.name}
          </button>
        </li>
      ))}
    </>
  );
}
