import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../types';
import { carrierSlices, isYtdEmpty, summarize, ytdPoints } from './charts';
import { mailtoHref } from './mailto';
import { withMessageRestored, withoutMessage } from './messages';
import { buildQuery, type ListQuery } from './query';
import { sanitizeHtml } from './sanitize';

describe('mailtoHref (Send Email)', () => {
  it('greets the subscriber by first name and signs with the agent, every part URL-encoded', () => {
    const href = mailtoHref({ sub_email: 'zoë+x@example.com', first_name: 'Zoë & Co' }, 'Maria Alvarez', 'quotes');
    expect(href.startsWith('mailto:zo%C3%AB%2Bx@example.com?subject=')).toBe(true);
    const url = new URL(href);
    expect(url.searchParams.get('subject')).toBe('Your health insurance quote');
    const body = url.searchParams.get('body') ?? '';
    expect(body.startsWith('Dear Zoë & Co,\r\n')).toBe(true);
    expect(body.endsWith('Sincerely,\r\nMaria Alvarez')).toBe(true);
    expect(href).not.toContain(' ');
    expect(href).toContain('%0D%0A');
  });
  it('names submissions differently', () => {
    const url = new URL(mailtoHref({ sub_email: 'a@b.example', first_name: 'Ann' }, 'Agent', 'enrollees'));
    expect(url.searchParams.get('subject')).toBe('Your health insurance enrollment');
  });
});

describe('year-to-date chart', () => {
  it('labels months Jan … in the order sent', () => {
    const points = ytdPoints({ '2024-01': 3, '2024-02': 0, '2024-11': 7 });
    expect(points.map((p) => p.month)).toEqual(['Jan', 'Feb', 'Nov']);
    expect(points.map((p) => p.count)).toEqual([3, 0, 7]);
    expect(summarize(points.map((p) => ({ label: p.month, count: p.count })))).toBe('Jan: 3, Feb: 0, Nov: 7');
  });
  it('is empty with no months or only zeros', () => {
    expect(isYtdEmpty(ytdPoints({}))).toBe(true);
    expect(isYtdEmpty(ytdPoints(null))).toBe(true);
    expect(isYtdEmpty(ytdPoints({ '2024-01': 0, '2024-02': 0 }))).toBe(true);
    expect(isYtdEmpty(ytdPoints({ '2024-01': 0, '2024-02': 1 }))).toBe(false);
  });
});

describe('carrier pie', () => {
  it('takes names and colours from the response and drops empty carriers', () => {
    expect(
      carrierSlices({
        carrierCounts: { '1': 10, '3': 0, '4': 2 },
        carrierNames: { '1': 'Blue Cross', '3': 'Other', '4': 'Fourth' },
        carrierColors: { '1': '#0b5fa5', '4': '#aa0000' },
      }),
    ).toEqual([
      { id: '1', name: 'Blue Cross', count: 10, color: '#0b5fa5' },
      { id: '4', name: 'Fourth', count: 2, color: '#aa0000' },
    ]);
    expect(carrierSlices({ carrierCounts: {}, carrierNames: {}, carrierColors: {} })).toEqual([]);
  });
});

const msg = (id: string): AgentMessage => ({
  id,
  title: id,
  content: `<p>${id}</p>`,
  is_sticky: false,
  publish_date: '2024-11-01',
  expiration_date: null,
  code: null,
  created_at_formatted: '11/01/2024',
  dismissed: false,
  agents: [],
});

describe('optimistic dismiss', () => {
  it('removes a message and puts it back where it was', () => {
    const list = [msg('a'), msg('b'), msg('c')];
    const { list: without, index } = withoutMessage(list, 'b');
    expect(without.map((m) => m.id)).toEqual(['a', 'c']);
    expect(index).toBe(1);
    expect(withMessageRestored(without, list[1]!, index).map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(withMessageRestored(list, list[1]!, 1)).toBe(list);
    expect(withoutMessage(list, 'zz')).toEqual({ list, index: -1 });
  });
});

describe('sanitizeHtml', () => {
  it('drops scripts, handlers and javascript: links; new-tab links get noopener', () => {
    const out = sanitizeHtml(
      '<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">bad</a><a href="https://x.example" target="_blank">ok</a><img src=x onerror="y()">',
    );
    expect(out).not.toMatch(/script|onclick|onerror|javascript:/);
    expect(out).toContain('<p>Hi</p>');
    expect(out).toContain('rel="noopener noreferrer"');
  });
});

describe('list query', () => {
  const base: ListQuery = { page: 1, sortCol: 'last_name', sortOrderAsc: true, daysToShow: 60, searchName: '', products: [] };
  it('sends the Site and Started by filters only when chosen', () => {
    expect(buildQuery(base)).not.toMatch(/filterSubdomain|filterStartedBy/);
    const q = new URLSearchParams(buildQuery({ ...base, subdomain: 'acmeins', startedBy: 'consumer' }));
    expect(q.get('filterSubdomain')).toBe('acmeins');
    expect(q.get('filterStartedBy')).toBe('consumer');
  });
});
