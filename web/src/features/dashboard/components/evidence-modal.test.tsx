import { act, cleanup, fireEvent, render, screen, waitFor } from '@/test/render';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVIDENCE_POLL_MS, EvidenceModal } from './evidence-modal';

// "every submission has a PDF (and a JSON twin) that an agent downloads from
// Submissions … made in the background with progress shown".

const evidence = (state: 'preparing' | 'ready') => ({
  state,
  confirmation: '4D8D-F5A3-66F6',
  sha256: 'ab'.repeat(32),
  pdf_sha256: state === 'ready' ? 'cd'.repeat(32) : null,
  created_at: '2024-11-20T10:00:00Z',
});

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Evidence Packet', () => {
  it('says the PDF is being prepared, asks again until it is ready, then downloads both files', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const urls: string[] = [];
    let asked = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        urls.push(url);
        if (url.startsWith('/api/dashboard/evidence/')) {
          asked += 1;
          return answer(200, evidence(asked < 2 ? 'preparing' : 'ready'));
        }
        return new Response(new Blob(['%PDF-']), { status: 200 });
      }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(<EvidenceModal applicationId="app-1" onClose={() => {}} />);

    const preparing = await screen.findByText(/Preparing the PDF/);
    expect(preparing.closest('[role="status"]')).toBeTruthy();
    expect(screen.getByText('4D8D-F5A3-66F6')).toBeTruthy();
    const pdf = screen.getByRole('button', { name: 'Download PDF' }) as HTMLButtonElement;
    expect(pdf.disabled).toBe(true);
    // The JSON twin is there at once.
    fireEvent.click(screen.getByRole('button', { name: 'Download JSON' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(urls).toContain('/api/dashboard/evidenceJson/app-1');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('evidence-4D8D-F5A3-66F6.json');

    await act(() => vi.advanceTimersByTimeAsync(EVIDENCE_POLL_MS));
    await waitFor(() => expect(screen.getByText('The PDF is ready.')).toBeTruthy());
    expect(asked).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect(urls).toContain('/api/dashboard/evidencePdf/app-1');
    expect((click.mock.contexts[1] as HTMLAnchorElement).download).toBe('evidence-4D8D-F5A3-66F6.pdf');
    // Ready: no more asking.
    await act(() => vi.advanceTimersByTimeAsync(EVIDENCE_POLL_MS * 3));
    expect(asked).toBe(2);
  });

  it("shows the server's reason when a submission has no packet", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(404, { error: 'This application was submitted before evidence packets were kept.' })),
    );
    render(<EvidenceModal applicationId="old" onClose={() => {}} />);
    expect(await screen.findByText('This application was submitted before evidence packets were kept.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download PDF' })).toBeNull();
  });
});
