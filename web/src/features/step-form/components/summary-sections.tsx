import { Fragment, useState, type MouseEvent } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Button, Dialog, Spinner } from '@cmsgov/design-system';
import { GENERIC_ERROR } from '@/lib/api-client';
import type { LegalDocument } from '@/types/api';
import { getDocument } from '../api/get-document';
import { reopenStep } from '../api/reopen-step';
import type { LinkView } from '../utils/links';
import type { DetailRow, SectionView, TableView } from '../utils/sections';
import type { StepFormContext } from './form-context';

// The read-only parts of a form step (`ui:sections`, utils/sections.ts) and the form files' links
// (utils/links.ts), drawn with the CMS Design System's styles.

type LinkContext = Pick<StepFormContext, 'navigate' | 'goHome'> & Partial<Pick<StepFormContext, 'applicationChanged'>>;

function Lines({ lines }: { lines: string[] }) {
  return (
    <>
      {lines.map((l, i) => (
        <Fragment key={`${i}-${l}`}>
          {i > 0 && <br />}
          {l}
        </Fragment>
      ))}
    </>
  );
}

type DocumentState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; doc: LegalDocument };

/** A text of the server (`document: /api/legal/terms`) in a dialog, loaded when it is opened. */
function DocumentLink({ link }: { link: LinkView }) {
  const { i18n } = useLingui();
  const [state, setState] = useState<DocumentState>({ status: 'loading' });
  const [shown, setShown] = useState(false);
  const open = () => {
    setShown(true);
    if (state.status === 'ready') return;
    setState({ status: 'loading' });
    getDocument(link.href).then(
      (doc) => setState({ status: 'ready', doc }),
      () => setState({ status: 'failed' }),
    );
  };
  return (
    <>
      <button type="button" className="ef-link-button" aria-haspopup="dialog" onClick={open}>
        {link.label}
      </button>
      <Dialog
        isOpen={shown}
        onExit={() => setShown(false)}
        size="wide"
        heading={state.status === 'ready' ? state.doc.title : link.label}
        actions={
          <Button variation="solid" onClick={() => setShown(false)}>
            <Trans id="Close" />
          </Button>
        }
      >
        {state.status === 'loading' && <Spinner aria-valuetext={i18n._('Loading')} role="status" />}
        {state.status === 'failed' && <p>{i18n._(GENERIC_ERROR)}</p>}
        {/* The server's own text, rendered from its templates. */}
        {state.status === 'ready' && <div className="ef-document" dangerouslySetInnerHTML={{ __html: state.doc.html }} />}
      </Dialog>
    </>
  );
}

/**
 * A link to a step that may have been skipped ("I want to select a dental plan instead"): the step
 * is opened again on the server first, then the page goes there. A failure is said, and the page stays.
 */
function ReopenLink({ link, step, ctx }: { link: LinkView; step: string; ctx: LinkContext }) {
  const { i18n } = useLingui();
  const [state, setState] = useState<'idle' | 'opening' | 'failed'>('idle');
  return (
    <>
      <a
        href={link.href}
        aria-disabled={state === 'opening' ? true : undefined}
        onClick={(e: MouseEvent<HTMLAnchorElement>) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          if (state === 'opening') return;
          setState('opening');
          reopenStep(step).then(
            (r) => {
              ctx.applicationChanged?.(r.application);
              ctx.navigate(r.step.route);
            },
            () => setState('failed'),
          );
        }}
      >
        {link.label}
      </a>
      {state === 'failed' && (
        <span role="alert" className="ds-u-color--error ds-u-display--block">
          {i18n._(GENERIC_ERROR)}
        </span>
      )}
    </>
  );
}

/** A link of a form file: an app page, another site (new tab), a server text, or Return Home. */
export function StepLink({ link, ctx }: { link: LinkView; ctx: LinkContext }) {
  switch (link.kind) {
    case 'route':
      if (link.reopen !== undefined) return <ReopenLink link={link} step={link.reopen} ctx={ctx} />;
      return (
        <a
          href={link.href}
          onClick={(e: MouseEvent<HTMLAnchorElement>) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            ctx.navigate(link.href);
          }}
        >
          {link.label}
        </a>
      );
    case 'external':
      return (
        <a href={link.href} target="_blank" rel="noopener noreferrer">
          {link.label}
          <span className="ds-u-visibility--screen-reader">
            {' '}
            <Trans id="(opens in a new tab)" />
          </span>
        </a>
      );
    case 'document':
      return <DocumentLink link={link} />;
    case 'home':
      return (
        <Button variation="solid" onClick={() => ctx.goHome(link.href)}>
          {link.label}
        </Button>
      );
  }
}

function Details({ rows }: { rows: DetailRow[] }) {
  return (
    <dl className="ef-summary__details">
      {rows.map((r, i) => (
        <div key={`${i}-${r.title}`} className="ef-summary__detail">
          <dt>{r.title}</dt>
          <dd>
            <Lines lines={r.lines} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function SummaryTable({ table, title }: { table: TableView; title: string | null }) {
  const { i18n } = useLingui();
  if (table.rows.length === 0) return <p>{table.empty}</p>;
  const cellClass = (i: number) => (table.columns[i]?.numeric ? 'ef-summary__figure' : undefined);
  const name = table.caption ?? title;
  return (
    // A table wider than a phone scrolls in its wrapper, which takes keyboard focus to scroll it.
    <div
      className="ef-summary__table-wrapper"
      tabIndex={0}
      role="group"
      aria-label={name === null ? i18n._('Summary table') : i18n._('{name} table', { name })}
    >
      <table className="ds-c-table ds-c-table--compact ef-summary__table">
        {table.caption && (
          <caption className={table.caption === title ? 'ds-u-visibility--screen-reader' : 'ds-c-table__caption'}>{table.caption}</caption>
        )}
        <thead>
          <tr>
            {table.columns.map((c, i) => (
              <th key={`${i}-${c.title}`} scope="col" className={cellClass(i)}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) => (
                <td key={i} className={cellClass(i)}>
                  <Lines lines={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {table.total && (
          <tfoot>
            <tr>
              {table.total.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    <Lines lines={cell} />
                  </th>
                ) : (
                  <td key={i} className={cellClass(i)}>
                    <Lines lines={cell} />
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

export function SummarySection({ section, ctx }: { section: SectionView; ctx: LinkContext }) {
  const headingId = `ef-section-${section.key}`;
  return (
    <section className="ef-summary" aria-labelledby={section.title ? headingId : undefined}>
      {section.title && (
        <h2 id={headingId} className="ds-text-heading--xl">
          {section.title}
        </h2>
      )}
      {section.paragraphs.map((p) => (
        <p key={p}>{p}</p>
      ))}
      {section.details.length > 0 && <Details rows={section.details} />}
      {section.table && <SummaryTable table={section.table} title={section.title} />}
      {section.cards.map((c, i) => (
        <div key={`${i}-${c.title}`} className="ef-summary__card">
          {c.title && <h3 className="ds-text-heading--lg">{c.title}</h3>}
          <Details rows={c.rows} />
        </div>
      ))}
      {section.links.length > 0 && (
        <div className="ef-summary__links">
          {section.links.map((l) => (
            <StepLink key={`${l.kind}-${l.href}-${l.label}`} link={l} ctx={ctx} />
          ))}
        </div>
      )}
    </section>
  );
}

export function SummarySections({ sections, ctx }: { sections: readonly SectionView[]; ctx: LinkContext }) {
  return (
    <>
      {sections.map((s) => (
        <SummarySection key={s.key} section={s} ctx={ctx} />
      ))}
    </>
  );
}
