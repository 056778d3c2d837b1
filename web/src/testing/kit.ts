// What the component tests share: a JSON answer of the server, and jsdom's missing modal dialogs.

export const jsonResponse = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** jsdom has no modal dialogs: showModal and close only set and remove `open`. */
export function polyfillDialogs(): void {
  window.scrollTo = () => {};
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}
