import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLingui } from '@lingui/react';

export const RESULT_COUNT = /*i18n*/ { id: '{count, plural, one {# result} other {# results}}' };
export const NO_MATCHES = /*i18n*/ { id: 'No matches' };
export const SEARCH_FAILED = /*i18n*/ { id: 'The search did not work. Please try again.' };

/** Typing is searched once it pauses this long. */
const DEBOUNCE_MS = 150;

export interface TypeaheadProps<T> {
  label: string;
  hint?: string;
  /** Asks for the hits of `q` (the text typed, trimmed); `signal` aborts it when the text changes. */
  search: (q: string, signal: AbortSignal) => Promise<readonly T[]>;
  /** Draws a hit in the list (text: it is the option's name for screen readers). */
  render: (hit: T) => ReactNode;
  /** A hit's unique key. */
  hitKey: (hit: T) => string;
  /** A hit was chosen (Enter, a click or a tap): the field empties for the next one. */
  onPick: (hit: T) => void;
  /** Whether the text may be searched (default: 2 characters or more). */
  searchable?: (q: string) => boolean;
}

type Phase = 'idle' | 'loading' | 'done' | 'error';

const longEnough = (q: string) => q.length >= 2;

/**
 * A search field that suggests hits as one types: the WAI-ARIA 1.2 combobox pattern with a listbox
 * popup (list autocomplete, no automatic selection). Down and Up move through the hits (Down opens
 * the list), Enter picks the one shown as active, Escape closes the list (and, closed, empties the
 * field); a click or a tap picks too. The hits' count, "No matches" or the failure is said in a
 * polite live region. Typing is searched after a 150 ms pause; a new search aborts the previous.
 */
export function Typeahead<T>({ label, hint, search, render, hitKey, onPick, searchable = longEnough }: TypeaheadProps<T>) {
  const { i18n } = useLingui();
  const id = useId();
  const inputId = `${id}-input`;
  const hintId = `${id}-hint`;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;

  const [text, setText] = useState('');
  const [hits, setHits] = useState<readonly T[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  // The search waiting for the pause, and the one running (aborted by the next keystroke).
  const timer = useRef<number | undefined>(undefined);
  const running = useRef<AbortController | null>(null);
  const stop = () => {
    window.clearTimeout(timer.current);
    running.current?.abort();
    running.current = null;
  };
  useEffect(() => stop, []);

  function type(value: string) {
    setText(value);
    setActive(-1);
    stop();
    const q = value.trim();
    if (!searchable(q)) {
      setHits([]);
      setPhase('idle');
      setOpen(false);
      return;
    }
    setPhase('loading');
    timer.current = window.setTimeout(() => {
      const ctrl = new AbortController();
      running.current = ctrl;
      search(q, ctrl.signal).then(
        (found) => {
          if (ctrl.signal.aborted) return;
          running.current = null;
          setHits(found);
          setPhase('done');
          setOpen(found.length > 0);
        },
        () => {
          if (ctrl.signal.aborted) return;
          running.current = null;
          setHits([]);
          setPhase('error');
          setOpen(false);
        },
      );
    }, DEBOUNCE_MS);
  }

  function pick(hit: T) {
    stop();
    setText('');
    setHits([]);
    setPhase('idle');
    setOpen(false);
    setActive(-1);
    onPick(hit);
  }

  const expanded = open && hits.length > 0;

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const n = hits.length;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (n === 0) return;
        e.preventDefault();
        const down = e.key === 'ArrowDown';
        if (!expanded) {
          setOpen(true);
          // Alt+Down opens the list without choosing a hit.
          setActive(e.altKey ? -1 : down ? 0 : n - 1);
          return;
        }
        setActive((a) => (down ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
        return;
      }
      case 'Enter': {
        const hit = expanded && active >= 0 ? hits[active] : undefined;
        if (hit === undefined) return;
        e.preventDefault();
        pick(hit);
        return;
      }
      case 'Escape':
        if (expanded) {
          e.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (text) {
          e.preventDefault();
          type('');
        }
        return;
    }
  }

  // The active hit stays in sight in a list taller than its box.
  useLayoutEffect(() => {
    if (!expanded || active < 0) return;
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const announce =
    phase === 'error'
      ? i18n._(SEARCH_FAILED)
      : phase === 'done'
        ? hits.length === 0
          ? i18n._(NO_MATCHES)
          : i18n._(RESULT_COUNT.id, { count: hits.length })
        : '';
  // The count is for screen readers (the list shows it); "No matches" and a failure are for everyone.
  const shownToAll = phase === 'error' || (phase === 'done' && hits.length === 0);

  return (
    <div className="ef-typeahead">
      <label className="ds-c-label" htmlFor={inputId}>
        {label}
      </label>
      {hint && (
        <p className="ds-c-hint" id={hintId}>
          {hint}
        </p>
      )}
      <div className="ef-typeahead__box">
        <input
          id={inputId}
          className="ds-c-field ef-typeahead__input"
          type="text"
          role="combobox"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={hint ? hintId : undefined}
          value={text}
          onChange={(e) => type(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          className="ef-typeahead__list"
          hidden={!expanded}
          aria-busy={phase === 'loading'}
          // A press on the list keeps the focus in the field (a tap on a phone keeps its keyboard).
          onMouseDown={(e) => e.preventDefault()}
        >
          {expanded &&
            hits.map((hit, i) => (
              <li
                key={hitKey(hit)}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={`ef-typeahead__option${i === active ? ' ef-typeahead__option--active' : ''}`}
                onClick={() => pick(hit)}
              >
                {render(hit)}
              </li>
            ))}
        </ul>
      </div>
      <p
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className={shownToAll ? `ef-typeahead__message${phase === 'error' ? ' ef-typeahead__message--error' : ''}` : 'ds-u-visibility--screen-reader'}
      >
        {announce}
      </p>
    </div>
  );
}
