import { act, cleanup, fireEvent, render, screen } from '@/test/render';
import { i18n } from '@/i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages as english } from '@/locales/shell/en.po';
import { LegalLinks } from './legal-links';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('LegalLinks', () => {
  afterEach(() => {
    cleanup();
    act(() => i18n.loadAndActivate({ locale: 'en', messages: english }));
  });

  it('opens a document in the language it was read in, and reads it again in a new language', async () => {
    const fetchMock = vi.fn(async () => json(200, { title: 'Terms of Use', html: '<p>Be kind.</p>' }));
    vi.stubGlobal('fetch', fetchMock);
    render(<LegalLinks />);
    fireEvent.click(screen.getByRole('button', { name: 'Terms of Use' }));
    expect((await screen.findByRole('dialog', { name: 'Terms of Use' })).textContent).toContain('Be kind.');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Terms of Use' }));
    expect(await screen.findByText('Be kind.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    fetchMock.mockImplementation(async () => json(200, { title: 'Términos de uso', html: '<p>Sea amable.</p>' }));
    act(() => i18n.loadAndActivate({ locale: 'es', messages: { 'Terms of Use': 'Términos de uso' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Términos de uso' }));
    expect(await screen.findByText('Sea amable.')).toBeTruthy();
    expect(screen.queryByText('Be kind.')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('says something went wrong when the document cannot be read', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(500, {})));
    render(<LegalLinks />);
    fireEvent.click(screen.getByRole('button', { name: 'Privacy Policy' }));
    expect(await screen.findByText('Something went wrong!')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Privacy Policy' })).toBeTruthy();
  });
});
